/**
 * The outbox: creates queued on the device (offline too) and submitted in batch. Inputs of
 * creates are the domain's strict request schemas. No Node, no DOM: the renderer imports this
 * file.
 */
import { Order, OutboxCreate, OutboxKind, OutboxState } from '@eo/domain';
import { z } from 'zod';
import { byId, id, none } from '../../shared/contract/fields';

/**
 * One create to queue (@eo/domain's `OutboxCreate`: the kind and its input, with the schema the
 * outbox checks it with). Dispatch parses it; the outbox queues the parsed create as checked.
 */
export { OutboxCreate };

/** The most creates one `outbox.enqueueAll` takes. */
export const MAX_ENQUEUE_ALL = 1000;

export const OutboxProblem = z.object({ path: z.string(), message: z.string() });

/**
 * `kind` of a queued entry's `lastError` that is not a failure: the entry waits for something
 * the service must finish first (a delivery for its order's items; @eo/sync's outbox sets it).
 */
export const WAITING_KIND = 'waiting';

/** The service's answer or the transport failure, as the outbox stored it. */
export const OutboxError = z.object({
  kind: z.string(),
  status: z.number().int().optional(),
  code: z.string().optional(),
  message: z.string(),
  details: z.array(OutboxProblem).optional(),
  /** The attempt may have created it (lost answer, timeout, 5xx, the app stopped while sending). */
  inDoubt: z.boolean().optional(),
  /** When that attempt left (ISO instant): what the user checks the service against. */
  attemptedAt: z.string().optional(),
  /** The id the service's (unusable) answer suggested, offered to "it was created". */
  candidateId: z.string().optional(),
});
export type OutboxError = z.infer<typeof OutboxError>;

export const OutboxEntryView = z.object({
  /** Client-generated; also the Idempotency-Key; `local:<id>` refers to it from other inputs. */
  id: z.string(),
  seq: z.number().int(),
  kind: OutboxKind,
  state: OutboxState,
  input: z.record(z.string(), z.unknown()),
  /** Entries this one refers to by local id (sent first). */
  dependsOn: z.array(z.string()),
  attempts: z.number().int().min(0),
  /** ISO instants. */
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  sentAt: z.string().nullable(),
  lastError: OutboxError.nullable(),
  /** The created resource's id (deliveries: comma-separated). */
  remoteId: z.string().nullable(),
  response: z.unknown(),
  /**
   * The service (origin, or `embedded`) this create was queued for, present only when that is
   * not the service set now: it is held, never sent to another service.
   */
  queuedFor: z.string().optional(),
  /** One line a person reads: "Order · 2 items: Field A, Field B". */
  summary: z.string(),
  /**
   * Whether edit / retry / cancel apply in this state; confirm ("it was created") and resend
   * ("send it again") apply to an `unconfirmed` entry only.
   */
  can: z.object({
    edit: z.boolean(),
    retry: z.boolean(),
    cancel: z.boolean(),
    confirm: z.boolean(),
    resend: z.boolean(),
  }),
});
export type OutboxEntryView = z.infer<typeof OutboxEntryView>;

export const OutboxCounts = z.record(OutboxState, z.number().int().min(0));
export type OutboxCounts = z.infer<typeof OutboxCounts>;

export const OutboxList = z.object({
  entries: z.array(OutboxEntryView),
  counts: OutboxCounts,
});
export type OutboxList = z.infer<typeof OutboxList>;

/** Where a flush ("Submit all") stands; the last one is its result. */
export const FlushProgress = z.object({
  sent: z.number().int().min(0),
  failed: z.number().int().min(0),
  blocked: z.number().int().min(0),
  /** Left `unconfirmed`: may already be on the service, waiting for the user. */
  unconfirmed: z.number().int().min(0),
  /** Still queued (the service was unreachable, or a retry is scheduled). */
  remaining: z.number().int().min(0),
});
export type FlushProgress = z.infer<typeof FlushProgress>;

export const FlushResult = FlushProgress.extend({
  /** What needs attention after the batch: failed, blocked and unconfirmed entries, with why. */
  problems: z.array(
    z.object({ id: z.string(), kind: OutboxKind, summary: z.string(), message: z.string() }),
  ),
});
export type FlushResult = z.infer<typeof FlushResult>;

/** A price the service gave for an order: its total, and when it was asked (ISO instant). */
export const QuotedPrice = z.object({ total: z.number(), quotedAt: z.string() });
export type QuotedPrice = z.infer<typeof QuotedPrice>;

/** One queued order in the review before it is sent (issue 17). */
export const ReviewedOrder = z.object({
  id: z.string(),
  /** The entry as reviewed: `outbox.sendOrders` refuses it if it changed since. */
  updatedAt: z.string(),
  summary: z.string(),
  /** Its items' names, in order. */
  names: z.array(z.string()),
  /** The price known when it was queued (the composer's preview); null: not priced then. */
  composed: QuotedPrice.nullable(),
  /** The service's dry run now; null when the quote failed (`problem` says why). */
  quote: Order.nullable(),
  problem: z
    .object({ code: z.string(), message: z.string(), issues: z.array(OutboxProblem).optional() })
    .nullable(),
  /** Queued entries that wait for this order (a delivery of its items): sent after it. */
  dependents: z.number().int().min(0),
});
export type ReviewedOrder = z.infer<typeof ReviewedOrder>;

export const OrderReview = z.object({
  /** When the quotes were asked (ISO instant). */
  quotedAt: z.string(),
  orders: z.array(ReviewedOrder),
});
export type OrderReview = z.infer<typeof OrderReview>;

export const outboxMethods = {
  'outbox.list': {
    input: z
      .object({ states: z.array(OutboxState).min(1).optional() })
      .strict()
      .optional(),
    output: OutboxList,
  },
  'outbox.enqueue': { input: OutboxCreate, output: OutboxEntryView },
  /**
   * Several creates in one call, all or nothing (the AOIs of a field file): one refused and none
   * is queued; its issues' paths say which (`creates.2.input.name`).
   */
  'outbox.enqueueAll': {
    input: z.object({ creates: z.array(OutboxCreate).min(1).max(MAX_ENQUEUE_ALL) }).strict(),
    output: z.array(OutboxEntryView),
  },
  'outbox.edit': {
    input: z.object({ id, input: z.record(z.string(), z.unknown()) }).strict(),
    output: OutboxEntryView,
  },
  'outbox.retry': { input: byId, output: OutboxEntryView },
  'outbox.cancel': { input: byId, output: OutboxEntryView },
  /** An unconfirmed entry is on the service: sent, with this id (or the offered candidate). */
  'outbox.confirm': {
    input: z.object({ id, remoteId: id.optional() }).strict(),
    output: OutboxEntryView,
  },
  /** An unconfirmed entry is not on the service: queued to be sent again. */
  'outbox.resend': { input: byId, output: OutboxEntryView },
  /** "Submit all": sends every queued entry now; resolves when the batch is done. */
  'outbox.flush': { input: none, output: FlushResult },
  /** Quotes every queued order now (online only), beside its price when it was queued. */
  'outbox.reviewOrders': { input: none, output: OrderReview },
  /**
   * Sends exactly these reviewed orders (and what waits for them; free creates go along): the
   * confirmation "Send N orders". Each is quoted again first: refused (`conflict`), nothing
   * sent, if one changed or left the queue since, or its price is not the one confirmed.
   */
  'outbox.sendOrders': {
    input: z
      .object({
        orders: z
          .array(
            z
              .object({
                id,
                updatedAt: z.string().min(1),
                /** The total the user confirmed: the order goes only at this price. */
                total: z.number().min(0),
              })
              .strict(),
          )
          .min(1)
          .max(1000),
      })
      .strict(),
    output: FlushResult,
  },
} as const;

export const outboxEvents = {
  'outbox.changed': z.object({ pending: z.number().int().min(0) }),
  'outbox.progress': FlushProgress,
  'outbox.finished': FlushResult,
} as const;
