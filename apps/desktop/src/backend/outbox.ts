/**
 * The backend's one outbox: it exists whenever the backend runs (a field team queues creates
 * offline, even before the service is set up) and needs a client only to flush. Every flush,
 * "Submit all" and the connectivity watcher's auto-flush alike, goes through `flush()` here, so
 * two never run at once (a second caller shares the running batch) and both report the same
 * events: `outbox.progress` during the batch, `records.changed` for what the sent creates wrote
 * into the mirror, `outbox.changed` and `outbox.finished` at the end.
 */
import type { EoClient } from '@eo/api-client';
import type { CheckedOutboxCreate } from '@eo/domain';
import type { ConnectivityCheck, FlushTarget, Mirror, OutboxEntry, OutboxState } from '@eo/sync';
import {
  ContractError,
  type FlushResult,
  type OutboxEntryView,
  type OutboxList,
} from '../shared/contract';
import type { BackendEvents } from './events';
import { runBatch } from './outbox-batch';
import { asBatchRefusal, asContractErrors } from './outbox-refusals';
import { makeOutboxViews } from './outbox-view';
import { notConfigured, type NoService } from './no-service';

/** The mirror's `onMirrorError`: a sent create the mirror could not store (said, not thrown). */
export function reportMirrorError(err: unknown, entry: OutboxEntry): void {
  console.error(
    `outbox: ${entry.kind} ${entry.id} was created but not written to the mirror (the next sync brings it):`,
    err instanceof Error ? err.message : err,
  );
}

export interface BackendOutboxOptions {
  /** Holds the outbox; opened with `reportMirrorError` and the user's Idempotency-Key setting. */
  readonly mirror: Mirror;
  readonly events: BackendEvents;
  /** The current connection's client; null while no service is configured or working offline. */
  readonly client: () => EoClient | null;
  /** Why there is no client ("Work offline", or not set up); default not set up. */
  readonly noService?: NoService;
  /** Timeout of the connectivity check before "Submit all". */
  readonly connectivityTimeoutMs: number;
  /**
   * The check "Submit all" made, with the client it checked (the backend keeps its connectivity
   * indicator truthful, and ignores checks of a connection replaced meanwhile).
   */
  readonly onConnectivity?: (check: ConnectivityCheck, client: EoClient) => void;
  /**
   * The user's "send orders automatically" setting, asked at each batch (default false). Off,
   * no batch sends an order but those the user confirmed in the review (`sendOrders`): not the
   * auto-flush, not "Submit all".
   */
  readonly autoSendOrders?: () => boolean;
  /** An entry was queued or its input saved (the price book keeps an order's previewed price). */
  readonly onQueued?: (entry: OutboxEntry) => void;
  /**
   * Creates queued for another service than the one set now (mirror-source.ts): `ids` of the
   * entries still to send are held by every flush, `of` names an entry's service for its view.
   */
  readonly queuedElsewhere?: {
    ids(waiting: readonly string[]): readonly string[];
    of(id: string): string | null;
  };
}

export function createBackendOutbox(options: BackendOutboxOptions) {
  const { mirror, events } = options;
  const { outbox } = mirror;
  const plainViews = makeOutboxViews(mirror);
  /** An entry's view, with the service it was queued for when that is not the one set now. */
  const views = {
    ...plainViews,
    view(entry: OutboxEntry): OutboxEntryView {
      const view = plainViews.view(entry);
      const elsewhere = options.queuedElsewhere?.of(entry.id) ?? null;
      return elsewhere === null ? view : { ...view, queuedFor: elsewhere };
    },
  };
  /** The batch running, and the client (connection) it sends through. */
  let running: { client: EoClient; done: Promise<FlushResult> } | null = null;

  const pending = () => {
    const c = outbox.counts();
    return c.queued + c.sending;
  };
  const changed = () => events.emit('outbox.changed', { pending: pending() });
  const attention = () => outbox.list({ states: ['failed', 'blocked', 'unconfirmed'] });

  function existing(id: string): OutboxEntry {
    const entry = outbox.get(id);
    if (!entry) {
      throw new ContractError('invalid_argument', `No outbox entry ${id}`, {
        issues: [{ path: 'id', message: 'no such outbox entry' }],
      });
    }
    return entry;
  }

  /** Each reviewed order is still a queued order, unchanged since the review. */
  function checkReviewed(reviewed: ReadonlyArray<{ id: string; updatedAt: string }>): void {
    for (const r of reviewed) {
      const entry = existing(r.id);
      const view = views.view(entry);
      if (entry.kind !== 'order') {
        throw new ContractError('invalid_argument', `${view.summary} is not an order.`, {
          issues: [{ path: 'orders', message: `${r.id} is not an order` }],
        });
      }
      if (entry.state !== 'queued') {
        throw new ContractError(
          'conflict',
          `${view.summary} is ${entry.state} now, not waiting: review the orders again. Nothing was sent.`,
        );
      }
      if (view.updatedAt !== r.updatedAt) {
        throw new ContractError(
          'conflict',
          `${view.summary} changed since the review: review the orders again. Nothing was sent.`,
        );
      }
    }
  }

  function queued(entry: OutboxEntry): OutboxEntry {
    options.onQueued?.(entry);
    return entry;
  }

  /** One change by the user: the entry's view, then `outbox.changed`. */
  function act(fn: () => OutboxEntry): OutboxEntryView {
    const entry = asContractErrors(fn);
    changed();
    return views.view(entry);
  }

  function flush(
    manual: boolean,
    signal?: AbortSignal,
    release: readonly string[] = [],
  ): Promise<FlushResult> {
    const client = options.client();
    // A second caller on the same connection shares the batch; a batch of a replaced connection
    // (aborted with it) is not this caller's answer: theirs starts once that one has stopped.
    // Confirmed orders are never a running batch's (it holds them): theirs runs after it.
    if (running && running.client === client && release.length === 0) return running.done;
    if (!client) return Promise.reject((options.noService ?? notConfigured)());
    const previous = running?.done.catch(() => undefined);
    const deps = { mirror, events, options, views, pending, changed, attention };
    const run = () => runBatch(deps, { client, manual, signal, release });
    const done = (previous ? previous.then(run) : run()).finally(() => {
      if (running?.done === done) running = null;
    });
    running = { client, done };
    return done;
  }

  return {
    list(states?: readonly OutboxState[]): OutboxList {
      return {
        entries: outbox.list(states ? { states } : {}).map(views.view),
        counts: views.counts(outbox.counts()),
      };
    },
    /** A create dispatch parsed (the contract's `OutboxCreate`): not parsed again. */
    enqueue(create: CheckedOutboxCreate): OutboxEntryView {
      return act(() => queued(outbox.enqueueChecked(create)));
    },
    /**
     * All or nothing, in one transaction of the outbox; the issues of the one refused by the
     * contract's paths (`creates.N.input.field`).
     */
    enqueueAll(creates: readonly CheckedOutboxCreate[]): OutboxEntryView[] {
      const entries = asBatchRefusal(() => outbox.enqueueAllChecked(creates));
      changed();
      return entries.map(views.view);
    },
    edit(id: string, input: Record<string, unknown>): OutboxEntryView {
      existing(id);
      return act(() => queued(outbox.edit(id, input)));
    },
    retry(id: string): OutboxEntryView {
      existing(id);
      return act(() => outbox.retry(id));
    },
    cancel(id: string): OutboxEntryView {
      existing(id);
      return act(() => outbox.cancel(id));
    },
    /** "It was created" (the user checked the service): sent, with the id given or offered. */
    confirm(id: string, remoteId?: string): OutboxEntryView {
      existing(id);
      return act(() => outbox.confirm(id, remoteId));
    },
    /** "Send it again" (the user checked: it is not there). */
    resend(id: string): OutboxEntryView {
      existing(id);
      return act(() => outbox.resend(id));
    },
    pending,
    /** A batch is sending (its entries are `sending` until it ends). */
    sending: () => running !== null,
    /** "Submit all": sends every queued entry now, backoff or not (orders: see `sendOrders`). */
    flushNow: (signal?: AbortSignal) => flush(true, signal),
    /**
     * "Send N orders": exactly these reviewed orders go (with what waits for them), now. Each
     * must still be a queued order unchanged since the review: a price confirmed for another
     * input is no confirmation.
     */
    sendOrders(
      reviewed: ReadonlyArray<{ id: string; updatedAt: string }>,
      signal?: AbortSignal,
    ): Promise<FlushResult> {
      checkReviewed(reviewed);
      return flush(
        true,
        signal,
        reviewed.map((r) => r.id),
      );
    },
    checkReviewed,
    /** What the connectivity watcher flushes: the same batches, the backoff honoured. */
    autoFlush: {
      counts: () => outbox.counts(),
      flush: (o?: { signal?: AbortSignal }) => flush(false, o?.signal),
    } satisfies FlushTarget,
    /** Resolves when no batch is running (shutdown). */
    async idle(): Promise<void> {
      await running?.done.catch(() => undefined);
    },
  };
}

export type BackendOutbox = ReturnType<typeof createBackendOutbox>;
