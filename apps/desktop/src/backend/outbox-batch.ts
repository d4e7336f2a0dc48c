/**
 * One batch of the backend's outbox (`outbox.ts` runs one at a time): for "Submit all", first a
 * check that the service is there and takes the key; then the flush, with `outbox.progress`
 * during it, `records.changed` for what the sent creates wrote into the mirror, `outbox.changed`
 * and `outbox.finished` at its end.
 */
import type { EoClient } from '@eo/api-client';
import {
  checkConnectivity,
  PAID_KINDS,
  type ConnectivityCheck,
  type FlushProgress,
  type Mirror,
  type OutboxEntry,
  type OutboxKind,
  type OutboxState,
} from '@eo/sync';
import { ContractError, type EventPayload, type FlushResult } from '../shared/contract';
import type { BackendEvents } from './events';
import { unreachable } from './network-words';
import type { BackendOutboxOptions } from './outbox';
import type { makeOutboxViews } from './outbox-view';

export type RecordKind = EventPayload<'records.changed'>['kinds'][number];

/** Which mirrored list a sent create of each kind lands in. */
export const RECORD_KIND_OF: Record<OutboxKind, RecordKind> = {
  order: 'orders',
  aoi: 'aois',
  index: 'indices',
  visualization: 'visualizations',
  delivery: 'deliveries',
  job: 'jobs',
};

/** States of entries a flush may still send (or hold). */
const WAITING: OutboxState[] = ['queued', 'sending', 'failed', 'blocked', 'unconfirmed'];

export interface BatchDeps {
  readonly mirror: Mirror;
  readonly events: BackendEvents;
  readonly options: BackendOutboxOptions;
  readonly views: ReturnType<typeof makeOutboxViews>;
  /** Entries queued or sending. */
  readonly pending: () => number;
  /** Emits `outbox.changed`. */
  readonly changed: () => void;
  /** Entries that need a person (failed, blocked, unconfirmed). */
  readonly attention: () => OutboxEntry[];
}

export interface Batch {
  readonly client: EoClient;
  /** "Submit all" (or confirmed orders): checked first, sent now, backoff or not. */
  readonly manual: boolean;
  readonly signal: AbortSignal | undefined;
  /** Orders a person confirmed in the review: they go although orders are held. */
  readonly release: readonly string[];
}

/**
 * Only send to a service that is there and takes the key: a 401 would fail every entry, and an
 * unreachable service would use up attempts (attempted entries lose edit/cancel).
 */
async function checkBeforeSubmit(deps: BatchDeps, { client, signal }: Batch): Promise<void> {
  let check: ConnectivityCheck;
  try {
    check = await checkConnectivity(client, {
      signal,
      timeoutMs: deps.options.connectivityTimeoutMs,
    });
  } catch (e) {
    if (!signal?.aborted) throw e;
    throw new ContractError('offline', 'The connection changed meanwhile. Nothing was sent.');
  }
  deps.options.onConnectivity?.(check, client);
  if (check.status === 'unauthorized') {
    throw new ContractError(
      'unauthorized',
      'The service refused the API key: enter a valid key in Settings. Nothing was sent.',
    );
  }
  if (check.status !== 'online') {
    throw new ContractError(
      'offline',
      `The service cannot be reached: ${unreachable(check.message)}. Nothing was sent: the ${deps.pending()} queued entries are sent when it is back.`,
    );
  }
}

export async function runBatch(deps: BatchDeps, batch: Batch): Promise<FlushResult> {
  const { mirror, events, options } = deps;
  if (batch.manual) await checkBeforeSubmit(deps, batch);
  const written = new Set<RecordKind>();
  let last: FlushProgress | null = null;
  let failure: unknown = null;
  let progress: FlushProgress;
  try {
    progress = await mirror.flush(batch.client, {
      signal: batch.signal,
      // "Submit all" means now, backoff or not; the auto-flush waits for it.
      ignoreBackoff: batch.manual,
      // Orders cost money: every batch leaves them (and their dependents) queued, but for
      // those the user confirmed in the review (or all, when the setting says so).
      holdKinds: options.autoSendOrders?.() ? [] : PAID_KINDS,
      // Queued for another service: never sent to this one.
      holdIds:
        options.queuedElsewhere?.ids(mirror.outbox.list({ states: WAITING }).map((e) => e.id)) ??
        [],
      release: batch.release,
      onProgress: (p) => {
        last = p;
        events.emit('outbox.progress', p);
      },
      onCreated: (kind) => written.add(RECORD_KIND_OF[kind]),
    });
  } catch (e) {
    failure = e;
    progress = last ?? {
      sent: 0,
      failed: 0,
      blocked: 0,
      unconfirmed: 0,
      remaining: deps.pending(),
    };
  }
  if (written.size) events.emit('records.changed', { kinds: [...written] });
  const result = deps.views.result(progress, deps.attention());
  // An auto-flush that found nothing due is not a batch anyone needs to hear about.
  if (batch.manual || last !== null || failure !== null) {
    deps.changed();
    events.emit('outbox.finished', result);
  }
  if (failure !== null) throw failure;
  return result;
}
