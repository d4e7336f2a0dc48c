/**
 * The six kinds of create the outbox queues: the domain request schema each input must pass at
 * enqueue time, how it is sent with the client, and where the created resource's id is.
 */
import type { BodyInput, EoClient } from '@eo/api-client';
import type { CreateJobCall } from '@eo/domain';
import {
  clientRequestSchema,
  OUTBOX_INPUT_SCHEMAS,
  OUTBOX_KINDS,
  type EndpointId,
  type OutboxKind,
  type ServiceDialect,
} from '@eo/domain';
import type { z } from 'zod';

export { OUTBOX_KINDS, type OutboxKind };

/** Creates that cost money: an automatic flush may hold them for a person (`holdKinds`). */
export const PAID_KINDS: readonly OutboxKind[] = ['order'];

/** The endpoint each kind is created with. */
const ENDPOINT_OF = {
  order: 'createOrder',
  aoi: 'createAoi',
  index: 'createIndex',
  visualization: 'createVisualization',
  delivery: 'createDeliveries',
  job: 'createJob',
} as const satisfies Record<OutboxKind, EndpointId>;

/**
 * Whether the client would check an entry of `kind` with the very schema the entry passed at
 * enqueue (the whole input is the body: no path parameter split off). Then, for an entry with
 * no `local:` reference (sent exactly as stored), the client's check is skipped: the input was
 * validated once on this side of the service. Another profile's rules (`provider-v0` wants
 * `usecase` on order items) are still checked by the client.
 */
export function checkedAtEnqueue(dialect: ServiceDialect, kind: OutboxKind): boolean {
  return clientRequestSchema(dialect, ENDPOINT_OF[kind], 'body') === OUTBOX_INPUT_SCHEMAS[kind];
}

/** Kinds whose whole input is the request body (no path parameter carried in it). */
const BODY_KINDS: readonly OutboxKind[] = ['order', 'aoi', 'index', 'delivery'];

/**
 * The schema a service profile adds to the open one for `kind`, when the profile is known at
 * enqueue and has its own rules (`provider-v0` wants `usecase` on order items): checked then, so
 * an input the service would refuse is refused when queued, not at the flush. Undefined when the
 * profile checks what the open schema checks, or the input carries path parameters.
 */
export function profileSchema(dialect: ServiceDialect, kind: OutboxKind): z.ZodType | undefined {
  if (!BODY_KINDS.includes(kind) || checkedAtEnqueue(dialect, kind)) return undefined;
  return clientRequestSchema(dialect, ENDPOINT_OF[kind], 'body');
}

/** What `enqueue` takes: the client's input types (path parameters carried in the input). */
export interface OutboxInputs {
  order: BodyInput<'createOrder'>;
  aoi: BodyInput<'createAoi'>;
  index: BodyInput<'createIndex'>;
  visualization: BodyInput<'createVisualization'> & { aoi_id: string };
  delivery: BodyInput<'createDeliveries'>;
  job: z.input<typeof CreateJobCall>;
}
export type OutboxInput<K extends OutboxKind> = OutboxInputs[K];

interface SendOptions {
  readonly signal?: AbortSignal | undefined;
  readonly idempotencyKey: string | false;
  /** `false`: the input passed the client's own schema at enqueue (`checkedAtEnqueue`). */
  readonly validate?: boolean | undefined;
  /** `false`: a Retry-After ends the call at once; the outbox schedules the retry itself. */
  readonly waitRetryAfter?: boolean | undefined;
}

/** Sends one resolved input (no `local:` references left). */
export function sendCreate(
  client: EoClient,
  kind: OutboxKind,
  input: Record<string, unknown>,
  options: SendOptions,
): Promise<unknown> {
  switch (kind) {
    case 'order':
      return client.createOrder(input as BodyInput<'createOrder'>, options);
    case 'aoi':
      return client.createAoi(input as BodyInput<'createAoi'>, options);
    case 'index':
      return client.createIndex(input as BodyInput<'createIndex'>, options);
    case 'visualization': {
      const { aoi_id, ...body } = input as BodyInput<'createVisualization'> & { aoi_id: string };
      return client.createVisualization(aoi_id, body, options);
    }
    case 'delivery':
      return client.createDeliveries(input as BodyInput<'createDeliveries'>, options);
    case 'job': {
      const { workflow_id, ...query } = input as z.input<typeof CreateJobCall>;
      return client.createJob(workflow_id, query, options);
    }
  }
}

/**
 * The ids of the deliveries a delivery create made, in the answer's order: only string ids
 * (a delivery the answer shows without one is not named; the stored response keeps it).
 */
export function deliveryIdsOf(response: unknown): string[] {
  const r = response as Record<string, unknown> | null;
  const list: unknown[] = r && Array.isArray(r.deliveries) ? r.deliveries : [];
  return list
    .map((d) => (d && typeof d === 'object' ? (d as Record<string, unknown>).delivery_id : null))
    .filter((id): id is string => typeof id === 'string' && id !== '');
}

/**
 * The created resource's id. A delivery create makes several (how many per request is not shown
 * in the spec): its remote id is their ids joined by commas, for the screens and for a person
 * to read; code reads the ids from the stored response (`deliveryIdsOf`), never by splitting,
 * since the spec does not keep a comma out of an id. Null when the answer names nothing created.
 */
export function remoteIdOf(kind: OutboxKind, response: unknown): string | null {
  const r = response as Record<string, unknown> | null;
  if (!r) return null;
  switch (kind) {
    case 'aoi':
      return typeof r.aoi_id === 'string' ? r.aoi_id : null;
    case 'delivery':
      return deliveryIdsOf(r).join(',') || null;
    default:
      return typeof r.id === 'string' ? r.id : null;
  }
}
