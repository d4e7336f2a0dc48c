/**
 * The client's queue of creates made offline (the outbox, in @eo/sync): which creates it
 * queues and the states an entry moves through. Defined here, once, because the sync package,
 * the desktop's backend and its screens all name them.
 */
import { z } from 'zod';

/** One kind per create endpoint of the spec (4.7, 4.8, 4.10, 4.11, 4.12, 4.13). */
export const OUTBOX_KINDS = ['order', 'aoi', 'index', 'visualization', 'delivery', 'job'] as const;
export const OutboxKind = z.enum(OUTBOX_KINDS);
export type OutboxKind = z.infer<typeof OutboxKind>;

/**
 * queued: waiting to be sent; sending: a request may be on its way (committed before it
 * leaves); sent: created on the service; failed: the service refused it (4xx), editable;
 * blocked: a dependency failed, was blocked, cancelled or is unconfirmed; cancelled: by the user;
 * unconfirmed: an attempt may have created it (a lost response, a crash while sending, a 2xx
 * answer without a usable id) on a service not known to honour Idempotency-Key, and the lookup
 * could not tell: it waits for the user ("it was created", "send again" or cancel), never resent
 * on its own, because a blind resend could create it twice; handed_over: written to a file for
 * another laptop to send (`outbox-handover.ts`): never sent from here, found `sent` (by the other
 * laptop's receipt, or the lookup) once it is on the service.
 */
export const OUTBOX_STATES = [
  'queued',
  'sending',
  'sent',
  'failed',
  'blocked',
  'cancelled',
  'unconfirmed',
  'handed_over',
] as const;
export const OutboxState = z.enum(OUTBOX_STATES);
export type OutboxState = z.infer<typeof OutboxState>;
