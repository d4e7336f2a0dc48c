/**
 * The outbox as the screens see it: every queued create with its state, the pending count for
 * the header badge, "Submit all" with live progress, the last batch's result for the
 * notification, and the entry being edited (the Outbox screen hands it to the kind's form,
 * which saves with `outbox.edit` instead of `outbox.enqueue`).
 */
import type { OutboxKind } from '@eo/domain';
import { defineStore } from 'pinia';
import { ref, type Ref } from 'vue';
import type {
  FlushProgress,
  FlushResult,
  OutboxCreate,
  OutboxEntryView,
} from '../../shared/contract';
import { useBridge } from './bridge-provider';
import { readableError, type ReadableError } from './errors';
import { outboxList } from './outbox-list';

/** The screen whose form creates (and edits) each kind. */
export const SCREEN_FOR_KIND: Record<OutboxKind, string> = {
  order: 'orders',
  aoi: 'aois',
  index: 'indices',
  visualization: 'indices',
  delivery: 'deliveries',
  job: 'jobs',
};

/** Share of a batch handled so far (0..1), from a progress report. */
export function flushFraction(p: FlushProgress): number {
  const done = p.sent + p.failed + p.blocked + p.unconfirmed;
  const total = done + p.remaining;
  return total === 0 ? 0 : done / total;
}

/** A batch that did nothing (e.g. every entry waiting for its next attempt) is not news. */
export function isEmptyBatch(r: FlushProgress): boolean {
  return r.sent + r.failed + r.blocked + r.unconfirmed === 0;
}

export const useOutboxStore = defineStore('outbox', () => {
  const list = outboxList();
  const { refresh } = list;
  /** The last retry, cancel or "Submit all" failed (kept when the list is read again). */
  const actionError = ref<ReadableError | null>(null);
  const batch = outboxBatch(list, actionError);
  const editing = ref<OutboxEntryView | null>(null);

  function listen(): () => void {
    const bridge = useBridge();
    const offs = [
      bridge.on('outbox.changed', (p) => list.changed(p.pending)),
      bridge.on('outbox.progress', (p) => {
        batch.progress.value = p;
      }),
      bridge.on('outbox.finished', (r) => batch.finished(r)),
    ];
    return () => offs.forEach((off) => off());
  }

  /** Queues a create; rejects with the ContractError (field issues) for the form to show. */
  async function enqueue(create: OutboxCreate): Promise<OutboxEntryView> {
    const entry = await useBridge().call('outbox.enqueue', create);
    await refresh();
    return entry;
  }

  /** Several creates, all or nothing (`outbox.enqueueAll`); rejects like `enqueue`. */
  async function enqueueAll(creates: OutboxCreate[]): Promise<OutboxEntryView[]> {
    const entries = await useBridge().call('outbox.enqueueAll', { creates });
    await refresh();
    return entries;
  }

  /** Saves the entry being edited; rejects like `enqueue`. */
  async function saveEdit(id: string, input: Record<string, unknown>): Promise<OutboxEntryView> {
    const entry = await useBridge().call('outbox.edit', { id, input });
    if (editing.value?.id === id) editing.value = null;
    await refresh();
    return entry;
  }

  function startEdit(entry: OutboxEntryView): void {
    // A fresh object each time: "Edit" on the entry already being edited opens its form again.
    editing.value = { ...entry };
  }

  function stopEdit(): void {
    editing.value = null;
  }

  async function act(fn: () => Promise<unknown>): Promise<boolean> {
    actionError.value = null;
    let ok = true;
    try {
      await fn();
    } catch (err) {
      actionError.value = readableError(err);
      ok = false;
    }
    await refresh();
    return ok;
  }

  return {
    entries: list.entries,
    counts: list.counts,
    pendingFromEvent: list.pendingFromEvent,
    loading: list.loading,
    error: list.error,
    actionError,
    flushing: batch.flushing,
    progress: batch.progress,
    lastResult: batch.lastResult,
    resultSeq: batch.resultSeq,
    editing,
    pending: list.pending,
    needsAttention: list.needsAttention,
    byId: list.byId,
    dependentsOf: list.dependentsOf,
    unsent: list.unsent,
    listen,
    refresh,
    enqueue,
    enqueueAll,
    saveEdit,
    startEdit,
    stopEdit,
    retry: (id: string) => act(() => useBridge().call('outbox.retry', { id })),
    cancel: (id: string) => act(() => useBridge().call('outbox.cancel', { id })),
    /** "It was created": an unconfirmed entry is on the service (its id, or the offered one). */
    confirm(id: string, remoteId?: string): Promise<boolean> {
      const given = remoteId?.trim();
      return act(() =>
        useBridge().call('outbox.confirm', given ? { id, remoteId: given } : { id }),
      );
    },
    /** "Send it again": an unconfirmed entry is not on the service. */
    resend: (id: string) => act(() => useBridge().call('outbox.resend', { id })),
    /** "Take back": a handed-over entry the other laptop never got, queued here again. */
    takeBack: (id: string) => act(() => useBridge().call('outbox.takeBack', { ids: [id] })),
    flush: batch.flush,
  };
});

/** "Submit all" and its live progress, and the last batch's result for the notification. */
function outboxBatch(list: ReturnType<typeof outboxList>, actionError: Ref<ReadableError | null>) {
  const flushing = ref(false);
  const progress = ref<FlushProgress | null>(null);
  /** The last finished batch (also from auto-flushes), for the notification. */
  const lastResult = ref<FlushResult | null>(null);
  /** Increases with every finished batch, so a repeat of an identical result is still news. */
  const resultSeq = ref(0);

  function setResult(r: FlushResult): void {
    lastResult.value = r;
    resultSeq.value += 1;
  }

  /** An `outbox.finished` event (this window's batch, or an auto-flush). */
  function finished(r: FlushResult): void {
    setResult(r);
    if (!flushing.value) progress.value = null;
    void list.refresh();
  }

  /** "Submit all". The result also arrives as `outbox.finished` (lastResult). */
  async function flush(): Promise<FlushResult | null> {
    if (flushing.value) return null;
    flushing.value = true;
    actionError.value = null;
    const seqAtStart = resultSeq.value;
    progress.value = {
      sent: 0,
      failed: 0,
      blocked: 0,
      unconfirmed: 0,
      remaining: list.pending.value,
    };
    try {
      const result = await useBridge().call('outbox.flush');
      // Without a listener (or if the event is lost) the answer is the batch's result.
      if (resultSeq.value === seqAtStart) setResult(result);
      return result;
    } catch (err) {
      actionError.value = readableError(err);
      return null;
    } finally {
      flushing.value = false;
      progress.value = null;
      await list.refresh();
    }
  }

  return { flushing, progress, lastResult, resultSeq, finished, flush };
}
