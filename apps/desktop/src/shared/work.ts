/**
 * Part 2 of the contract: what the screens for orders, AOIs, indices, visualizations,
 * deliveries, jobs and the outbox exchange with the backend. Reads answer from the local mirror
 * (offline too); creates go through the outbox (`outbox.enqueue`), so they work offline and are
 * submitted in batch. Wire shapes are the domain's tolerant response schemas; inputs of creates
 * are the domain's strict request schemas. No Node, no DOM: the renderer imports this file.
 */
import {
  Aoi,
  AoiStatus,
  Asset,
  CreateAoiRequest,
  CreateDeliveriesRequest,
  CreateIndexRequest,
  CreateJobCall,
  CreateVisualizationCall,
  Delivery,
  IndexType,
  Job,
  OpenCreateOrderRequest,
  Order,
  OrderItem,
  AnyOrderItemStatus,
  OrderItemType,
  OrderStatus,
  OutboxKind,
  OutboxState,
  Rfc3339,
  SpectralIndex,
  Visualization,
} from '@eo/domain';
import { z } from 'zod';

const id = z.string().trim().min(1).max(200);

/** Inclusive instants (RFC 3339); either end may be left open. */
export const TimeWindow = z
  .object({ from: Rfc3339.optional(), to: Rfc3339.optional() })
  .strict()
  .refine((w) => !w.from || !w.to || Date.parse(w.from) <= Date.parse(w.to), {
    message: 'from must not be after to',
    path: ['to'],
  });
export type TimeWindow = z.infer<typeof TimeWindow>;

// --- reads from the mirror --------------------------------------------------------------------

export const OrdersQuery = z
  .object({ status: z.array(OrderStatus).optional(), created: TimeWindow.optional() })
  .strict()
  .optional();
export type OrdersQuery = z.input<typeof OrdersQuery>;

export const OrderItemsQuery = z
  .object({
    orderIds: z.array(id).max(1000).optional(),
    status: z.array(AnyOrderItemStatus).optional(),
    type: z.array(OrderItemType).optional(),
    projectId: id.optional(),
    created: TimeWindow.optional(),
    /** Item area in km² (the spec's "area range"), inclusive. */
    areaKm2: z
      .object({ min: z.number().min(0).optional(), max: z.number().min(0).optional() })
      .strict()
      .optional(),
    /** Case-insensitive substring of the item's name. */
    text: z.string().max(200).optional(),
  })
  .strict()
  .optional();
export type OrderItemsQuery = z.input<typeof OrderItemsQuery>;

export const AoisQuery = z
  .object({
    status: z.array(AoiStatus).optional(),
    projectId: id.optional(),
    text: z.string().max(200).optional(),
  })
  .strict()
  .optional();
export type AoisQuery = z.input<typeof AoisQuery>;

export const IndicesQuery = z
  .object({ type: IndexType.optional(), satelliteId: id.optional() })
  .strict()
  .optional();
export type IndicesQuery = z.input<typeof IndicesQuery>;

/**
 * Values the forms offer, gathered from what the mirror and the outbox have seen (the spec has
 * no endpoint listing projects, bandsets, satellites or workflows). Suggestions, not limits:
 * the forms accept other values and the service decides.
 */
export const Lookups = z.object({
  projectIds: z.array(z.string()),
  bandsetIds: z.array(z.string()),
  /** Satellites with the bands their indices and AOIs use (sorted, distinct). */
  satellites: z.array(z.object({ id: z.string(), bands: z.array(z.string()) })),
  workflowIds: z.array(z.string()),
});
export type Lookups = z.infer<typeof Lookups>;

// --- the outbox -----------------------------------------------------------------------------

/** One create to queue: the kind and its input, validated with the domain request schema. */
export const OutboxCreate = z.discriminatedUnion('kind', [
  // Open values (recurrence, delivery speed) pass: the client checks the service's profile.
  z.object({ kind: z.literal('order'), input: OpenCreateOrderRequest }).strict(),
  z.object({ kind: z.literal('aoi'), input: CreateAoiRequest }).strict(),
  z.object({ kind: z.literal('index'), input: CreateIndexRequest }).strict(),
  z.object({ kind: z.literal('visualization'), input: CreateVisualizationCall }).strict(),
  z.object({ kind: z.literal('delivery'), input: CreateDeliveriesRequest }).strict(),
  z.object({ kind: z.literal('job'), input: CreateJobCall }).strict(),
]);
export type OutboxCreate = z.input<typeof OutboxCreate>;

export const OutboxProblem = z.object({ path: z.string(), message: z.string() });

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

// --- method and event entries (spread into `contract` and `events`) -------------------------

const none = z.object({}).strict().optional();
const byId = z.object({ id }).strict();

export const workMethods = {
  'orders.list': { input: OrdersQuery, output: z.array(Order) },
  'orderItems.list': { input: OrderItemsQuery, output: z.array(OrderItem) },
  /** Online only: the service's dry run (price, uplifts, feasibility); persists nothing. */
  'orders.quote': { input: OpenCreateOrderRequest, output: Order },
  'aois.list': { input: AoisQuery, output: z.array(Aoi) },
  'aois.assets': { input: z.object({ aoiId: id }).strict(), output: z.array(Asset) },
  'indices.list': { input: IndicesQuery, output: z.array(SpectralIndex) },
  /** Created by this client (the spec cannot list them), newest first. */
  'visualizations.list': { input: none, output: z.array(Visualization) },
  'deliveries.list': { input: none, output: z.array(Delivery) },
  'jobs.list': { input: none, output: z.array(Job) },
  /** Online: re-reads the status of unfinished visualizations, deliveries and jobs. */
  'created.refresh': {
    input: none,
    output: z.object({ updated: z.number().int().min(0) }),
  },
  'lookups.get': { input: none, output: Lookups },
  'outbox.list': {
    input: z
      .object({ states: z.array(OutboxState).min(1).optional() })
      .strict()
      .optional(),
    output: OutboxList,
  },
  'outbox.enqueue': { input: OutboxCreate, output: OutboxEntryView },
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
} as const;

export const workEvents = {
  'outbox.progress': FlushProgress,
  'outbox.finished': FlushResult,
  /** Mirrored records changed outside a sync (a create was sent, statuses re-read). */
  'records.changed': z.object({
    kinds: z.array(z.enum(['orders', 'aois', 'indices', 'visualizations', 'deliveries', 'jobs'])),
  }),
} as const;
