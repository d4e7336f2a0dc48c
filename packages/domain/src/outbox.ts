/**
 * The client's queue of creates made offline (the outbox, in @eo/sync): which creates it
 * queues and the states an entry moves through. Defined here, once, because the sync package,
 * the desktop's backend and its screens all name them.
 */
import { z } from 'zod';
import {
  CreateAoiRequest,
  CreateDeliveriesRequest,
  CreateIndexRequest,
  CreateJobCall,
  CreateVisualizationCall,
} from './requests/creates';
import { OpenCreateOrderRequest } from './requests/orders';

/** One kind per create endpoint of the spec (4.7, 4.8, 4.10, 4.11, 4.12, 4.13). */
export const OUTBOX_KINDS = ['order', 'aoi', 'index', 'visualization', 'delivery', 'job'] as const;
export const OutboxKind = z.enum(OUTBOX_KINDS);
export type OutboxKind = z.infer<typeof OutboxKind>;

/**
 * The schema each kind's input passes when it is queued, before anyone knows which service will
 * get it: values the spec leaves open (an order's recurrence, delivery speed) pass as non-empty
 * strings; the client checks the service profile's own rules when the entry is sent. The
 * visualization and job inputs carry their path parameter (`aoi_id`, `workflow_id`).
 */
export const OUTBOX_INPUT_SCHEMAS = {
  order: OpenCreateOrderRequest,
  aoi: CreateAoiRequest,
  index: CreateIndexRequest,
  visualization: CreateVisualizationCall,
  delivery: CreateDeliveriesRequest,
  job: CreateJobCall,
} as const satisfies Record<OutboxKind, z.ZodType>;

const createOf = <K extends OutboxKind>(kind: K) =>
  z.object({ kind: z.literal(kind), input: OUTBOX_INPUT_SCHEMAS[kind] }).strict();

/**
 * One create to queue: its kind and its input, checked with the kind's schema. What it parses
 * is branded (`CheckedOutboxCreate`): the outbox queues it as it is (`enqueueChecked`), without
 * running the kind's schema a second time in the same process.
 */
export const OutboxCreate = z
  .discriminatedUnion('kind', [
    createOf('order'),
    createOf('aoi'),
    createOf('index'),
    createOf('visualization'),
    createOf('delivery'),
    createOf('job'),
  ])
  .brand<'CheckedOutboxCreate'>();
/** A create as a form or file gives it (not checked yet). */
export type OutboxCreate = z.input<typeof OutboxCreate>;
/** A create `OutboxCreate` parsed: only a parse makes one. */
export type CheckedOutboxCreate = z.output<typeof OutboxCreate>;

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
