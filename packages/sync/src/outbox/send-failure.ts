/**
 * What becomes of an entry whose send failed with a transport answer (`EoClientError`): queued
 * again (now, after a backoff, after a Retry-After), looked for on the service, or failed. A
 * pure decision from the error and the attempt, so each branch can be read and tested alone;
 * the flush (`flush.ts`) carries it out.
 */
import { EoAbortError, EoApiError, type EoClientError } from '@eo/api-client';
import type { IdempotencyPolicy } from '@eo/domain';
import type { FieldProblem, StoredError } from './errors';
import { isCreatedWithoutId, isKeyInProgress, mayHaveCreated } from './in-doubt';

/** 5xx, 429 and 408 are the service saying "not now"; network failures and timeouts too. */
export function isTransient(err: EoClientError): boolean {
  if (err.retryable) return true; // e.g. a queued AOI's assets not produced yet (references.ts)
  if (err instanceof EoApiError)
    return err.status >= 500 || err.status === 429 || err.status === 408;
  return err.kind === 'network' || err.kind === 'timeout';
}

export function storedError(err: EoClientError): StoredError {
  const withDetails = err as EoClientError & {
    status?: number;
    code?: string;
    details?: FieldProblem[];
  };
  return {
    kind: err.kind,
    status: withDetails.status,
    code: withDetails.code,
    message: err.message,
    details: withDetails.details?.map((d) => ({ path: d.path, message: d.message })),
  };
}

export interface FailedAttempt {
  /** The create itself had left (its references were resolved and it was sent). */
  readonly leaving: boolean;
  /** When it left (µs). */
  readonly leftAt: number;
  /** The entry's doubt from an earlier attempt, if any. */
  readonly doubted: StoredError | null;
  /** The entry's error before this attempt (kept when an abort decides nothing). */
  readonly lastError: StoredError | null;
  readonly policy: IdempotencyPolicy;
}

export type SendFailure =
  /** 409 "still being processed": queued in doubt, not before its Retry-After, same key. */
  | { readonly next: 'key-in-progress'; readonly error: StoredError }
  /** The flush was aborted: queued with `error`, the flush stops. */
  | { readonly next: 'aborted'; readonly error: StoredError | null }
  /** Created for sure, id unknown: looked for, else left to the user (`raw`: its body). */
  | { readonly next: 'settle'; readonly error: StoredError; readonly raw: unknown }
  /** May be on the service: resent with the key if honoured, else looked for. */
  | { readonly next: 'in-doubt'; readonly error: StoredError }
  /** Not created, "not now": queued after a backoff. */
  | { readonly next: 'retry'; readonly error: StoredError }
  /** Not created and never will be as it is: failed, its dependents blocked. */
  | { readonly next: 'failed'; readonly error: StoredError };

export function sendFailure(err: EoClientError, attempt: FailedAttempt): SendFailure {
  const { leaving, leftAt, doubted } = attempt;
  // In doubt: this attempt may have created it, or an earlier one may have and this answer did
  // not settle it (a definite answer to a resend with an honoured key does).
  const inDoubt = leaving
    ? mayHaveCreated(err) || (doubted !== null && isTransient(err))
    : doubted !== null;
  const error: StoredError = inDoubt
    ? {
        ...storedError(err),
        inDoubt: true,
        attemptedAt: leaving && mayHaveCreated(err) ? leftAt : doubted?.attemptedAt,
      }
    : storedError(err);
  if (leaving && attempt.policy !== 'ignored' && isKeyInProgress(err)) {
    // An attempt with this key runs on the service and will be the one create; the resend with
    // the same key gets that attempt's answer. Its dependents wait, nothing fails.
    const running: StoredError = {
      ...storedError(err),
      inDoubt: true,
      keyInProgress: true,
      attemptedAt: doubted?.attemptedAt ?? leftAt,
    };
    return { next: 'key-in-progress', error: running };
  }
  // The next flush decides: the same key again, or the lookup first.
  if (err instanceof EoAbortError)
    return { next: 'aborted', error: inDoubt ? error : attempt.lastError };
  // A resend would at best replay the same body.
  if (isCreatedWithoutId(err)) return { next: 'settle', error, raw: err.body };
  if (inDoubt) return { next: 'in-doubt', error };
  if (isTransient(err)) return { next: 'retry', error };
  return { next: 'failed', error };
}

/** Rate-limited: the entry's kind waits for the Retry-After (the flush's `heldUntil`). */
export const isRateLimited = (err: EoClientError): err is EoApiError =>
  err instanceof EoApiError && err.status === 429;

/** Microseconds of the next attempt: backoff (jittered, capped), never before a Retry-After. */
export function makeBackoff(deps: {
  readonly micros: () => number;
  readonly random: () => number;
  readonly baseMs: number;
  readonly maxMs: number;
}) {
  return (attempts: number, err: EoClientError | undefined): number => {
    const backoff =
      Math.min(deps.maxMs, deps.baseMs * 2 ** (attempts - 1)) * (0.5 + deps.random() / 2);
    const wait = Math.max(backoff, err instanceof EoApiError ? (err.retryAfterMs ?? 0) : 0);
    return deps.micros() + Math.round(wait * 1000);
  };
}
