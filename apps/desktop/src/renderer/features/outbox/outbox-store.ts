/**
 * The outbox as the screens see it: every queued create with its state, the pending count for
 * the header badge, "Submit all" with live progress, the last batch's result for the
 * notification, and the entry being edited (the Outbox screen hands it to the kind's form,
 * which saves with `outbox.edit` instead of `outbox.enqueue`).
 */
import type { OutboxKind } from '@eo/domain';
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type {
  FlushProgress,
  FlushResult,
  OutboxCounts,
  OutboxCreate,
  OutboxEntryView,
} from '../../../shared/contract';
import { useBridge } from '../../stores/bridge-provider';
import { readableError, type ReadableError } from '../../stores/errors';

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
  // Replaced whole on every refresh (500+ entries): no deep reactivity needed.
  const entries = shallowRef<OutboxEntryView[]>([]);
  const counts = ref<OutboxCounts | null>(null);
  /** From `outbox.changed` events newer than the last list read. */
  const pendingFromEvent = ref<number | null>(null);
  const loading = ref(false);
  /** Reading the list failed. */
  const error = ref<ReadableError | null>(null);
  /** The last retry, cancel or "Submit all" failed (kept when the list is read again). */
  const actionError = ref<ReadableError | null>(null);
  const flushing = ref(false);
  const progress = ref<FlushProgress | null>(null);
  /** The last finished batch (also from auto-flushes), for the notification. */
  const lastResult = ref<FlushResult | null>(null);
  /** Increases with every finished batch, so a repeat of an identical result is still news. */
  const resultSeq = ref(0);
  const editing = ref<OutboxEntryView | null>(null);

  let eventSeq = 0;
  let inflight: Promise<void> | null = null;
  let again: Promise<void> | null = null;

  /** Waiting to be sent: queued and sending. */
  const pending = computed((): number => {
    if (pendingFromEvent.value !== null) return pendingFromEvent.value;
    return (counts.value?.queued ?? 0) + (counts.value?.sending ?? 0);
  });
  const needsAttention = computed(
    (): number =>
      (counts.value?.failed ?? 0) + (counts.value?.blocked ?? 0) + (counts.value?.unconfirmed ?? 0),
  );
  const byId = computed(() => new Map(entries.value.map((e) => [e.id, e])));
  /** Entries that refer to each entry by local id (blocked if it fails or is cancelled). */
  const dependentsOf = computed(() => {
    const out = new Map<string, OutboxEntryView[]>();
    for (const e of entries.value) {
      for (const d of e.dependsOn) {
        const list = out.get(d) ?? [];
        list.push(e);
        out.set(d, list);
      }
    }
    return out;
  });
  /** Entries of a kind not sent yet (for `local:<id>` pickers). */
  const unsent = computed(
    () => (kind: OutboxKind) =>
      entries.value.filter((e) => e.kind === kind && e.state !== 'sent' && e.state !== 'cancelled'),
  );

  function setResult(r: FlushResult): void {
    lastResult.value = r;
    resultSeq.value += 1;
  }

  function listen(): () => void {
    const bridge = useBridge();
    const offs = [
      bridge.on('outbox.changed', (p) => {
        eventSeq += 1;
        pendingFromEvent.value = p.pending;
        void refresh();
      }),
      bridge.on('outbox.progress', (p) => {
        progress.value = p;
      }),
      bridge.on('outbox.finished', (r) => {
        setResult(r);
        if (!flushing.value) progress.value = null;
        void refresh();
      }),
    ];
    return () => offs.forEach((off) => off());
  }

  async function load(): Promise<void> {
    const seqAtStart = eventSeq;
    loading.value = true;
    try {
      const list = await useBridge().call('outbox.list');
      entries.value = list.entries;
      counts.value = list.counts;
      // An event that arrived meanwhile may be newer than this list: keep its count.
      if (eventSeq === seqAtStart) pendingFromEvent.value = null;
      error.value = null;
    } catch (err) {
      error.value = readableError(err);
    } finally {
      loading.value = false;
    }
  }

  /**
   * Reads the list. Bursts (an event per entry during a batch) collapse: while one read runs,
   * every further call shares the single read that follows it.
   */
  function refresh(): Promise<void> {
    if (!inflight) {
      inflight = load().finally(() => (inflight = null));
      return inflight;
    }
    again ??= inflight.then(() => {
      again = null;
      return refresh();
    });
    return again;
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

  function retry(id: string): Promise<boolean> {
    return act(() => useBridge().call('outbox.retry', { id }));
  }

  function cancel(id: string): Promise<boolean> {
    return act(() => useBridge().call('outbox.cancel', { id }));
  }

  /** "It was created": an unconfirmed entry is on the service (its id, or the offered one). */
  function confirm(id: string, remoteId?: string): Promise<boolean> {
    const given = remoteId?.trim();
    return act(() => useBridge().call('outbox.confirm', given ? { id, remoteId: given } : { id }));
  }

  /** "Send it again": an unconfirmed entry is not on the service. */
  function resend(id: string): Promise<boolean> {
    return act(() => useBridge().call('outbox.resend', { id }));
  }

  /** "Take back": a handed-over entry the other laptop never got, queued here again. */
  function takeBack(id: string): Promise<boolean> {
    return act(() => useBridge().call('outbox.takeBack', { ids: [id] }));
  }

  /** "Submit all". The result also arrives as `outbox.finished` (lastResult). */
  async function flush(): Promise<FlushResult | null> {
    if (flushing.value) return null;
    flushing.value = true;
    actionError.value = null;
    const seqAtStart = resultSeq.value;
    progress.value = { sent: 0, failed: 0, blocked: 0, unconfirmed: 0, remaining: pending.value };
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
      await refresh();
    }
  }

  return {
    entries,
    counts,
    pendingFromEvent,
    loading,
    error,
    actionError,
    flushing,
    progress,
    lastResult,
    resultSeq,
    editing,
    pending,
    needsAttention,
    byId,
    dependentsOf,
    unsent,
    listen,
    refresh,
    enqueue,
    enqueueAll,
    saveEdit,
    startEdit,
    stopEdit,
    retry,
    cancel,
    confirm,
    resend,
    takeBack,
    flush,
  };
});
