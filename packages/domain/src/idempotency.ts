/**
 * Whether a service honours `Idempotency-Key` on creates is a capability it states, never an
 * assumption: a client resends a create that may already be on the service only when the
 * service has said that the same key replays the first response instead of creating again.
 * Our spec does not mention the key (nor does the provider's real document), so the header
 * below is our reference service's own statement, sent on every response.
 */
import { z } from 'zod';

/** Response header: `Idempotency-Key-Support: honoured`. */
export const IDEMPOTENCY_SUPPORT_HEADER = 'Idempotency-Key-Support';
/** Its value when creates replay the first response for a repeated key. */
export const IDEMPOTENCY_HONOURED = 'honoured';

/**
 * A user's override of the capability: `auto` believes the service (honoured only when it said
 * so), `honoured` / `ignored` force it (e.g. a proxy that drops the header, or a service known
 * to ignore the key whatever it says).
 */
export const IDEMPOTENCY_POLICIES = ['auto', 'honoured', 'ignored'] as const;
export const IdempotencyPolicy = z.enum(IDEMPOTENCY_POLICIES);
export type IdempotencyPolicy = z.infer<typeof IdempotencyPolicy>;

/** What a client knows: `unknown` until the service says it honours the key. */
export type IdempotencyCapability = 'honoured' | 'ignored' | 'unknown';

/** Reads the header value (case and spaces ignored); anything but `honoured` is not a promise. */
export function readIdempotencySupport(value: string | null | undefined): boolean {
  return value?.trim().toLowerCase() === IDEMPOTENCY_HONOURED;
}
