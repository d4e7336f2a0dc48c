/**
 * Creates whose fate is in doubt: an attempt that may have created the resource although the
 * outbox never learned its id (the answer was lost, timed out, was a 5xx (a gateway's 502), the
 * app died while it was `sending`, or the service answered 2xx with a body we cannot use).
 *
 * Against a service that honours Idempotency-Key (it says so: `client.capabilities`), sending
 * again with the same key is the answer. Against any other, a resend could create it twice (a
 * paid order!), so the outbox first looks for it (`recovery.ts`) and, where it cannot tell,
 * leaves the entry `unconfirmed` for the user.
 */
import {
  EoAbortError,
  EoApiError,
  EoNetworkError,
  EoResponseError,
  EoTimeoutError,
  type EoClientError,
} from '@eo/api-client';
import type { StoredError } from './errors';
import type { OutboxKind } from './kinds';

/** Socket failures before a request could leave: nothing reached the service. */
const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** The socket error code somewhere in the cause chain (undici nests it: fetch error -> cause). */
function socketCode(err: unknown): string | undefined {
  let e = err as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 4; depth++) {
    if (typeof e.code === 'string') return e.code;
    e = e.cause as typeof e;
  }
  return undefined;
}

/** May the failed attempt have created the resource on the service? */
export function mayHaveCreated(err: EoClientError): boolean {
  if (err instanceof EoResponseError) return err.status >= 200 && err.status < 300;
  // Any 5xx: a gateway's 502/503/504 or a service error after the work may have been done.
  if (err instanceof EoApiError) return err.status >= 500;
  if (err instanceof EoTimeoutError) return true;
  if (err instanceof EoAbortError) return err.attempts > 0;
  if (err instanceof EoNetworkError) return !NOT_CONNECTED.has(socketCode(err.cause) ?? '');
  return false;
}

/**
 * What a service says when a request with the same Idempotency-Key is still being processed
 * (the IETF idempotency-key draft's 409; Stripe's `idempotency_key_in_use`): words of its code
 * or message. A 409 that says the key was used with another request (our service's
 * `idempotency_conflict`) or any other conflict is not this.
 */
const IN_PROGRESS = /in[ _-]?progress|being processed|still processing|in[ _-]use|concurrent/i;

/**
 * A 409 to a create that carried its Idempotency-Key, saying an attempt with that key is still
 * being processed: the first attempt runs on the service, and will be the one create.
 */
export function isKeyInProgress(err: EoClientError): err is EoApiError {
  return (
    err instanceof EoApiError &&
    err.status === 409 &&
    IN_PROGRESS.test(`${err.code ?? ''} ${err.message}`)
  );
}

/** A 2xx answer: the service created it, we only lack a usable id. */
export function isCreatedWithoutId(err: EoClientError): err is EoResponseError {
  return err instanceof EoResponseError && err.status >= 200 && err.status < 300;
}

/** Whether a stored error leaves the entry in doubt (entries stored before the flag: by kind). */
export function isInDoubt(error: StoredError | null): boolean {
  if (!error) return false;
  if (error.inDoubt !== undefined) return error.inDoubt;
  if (error.kind === 'timeout' || error.kind === 'network') return true;
  return error.kind === 'api' && (error.status ?? 0) >= 500;
}

/**
 * What an unusable 2xx body suggests as the created resource's id, for the user to accept: the
 * id under the kind's own name (`job_id`, `order_id`...) when the expected field is missing.
 */
export function candidateIdOf(kind: OutboxKind, body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  for (const key of [kind === 'aoi' ? 'aoi_id' : 'id', `${kind}_id`]) {
    const value = record[key];
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return undefined;
}

/** The message an `unconfirmed` entry shows: why the outbox could not tell. */
export function unconfirmedMessage(why: string, cause: string): string {
  return `may already be on the service (${cause}); ${why}: confirm it was created, send it again, or cancel`;
}
