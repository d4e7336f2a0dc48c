/**
 * The outbox store's list: every queued create and the counts, read again on each change, with
 * what the screens derive from it (the pending badge, what needs attention, dependents, the
 * unsent entries a `local:<id>` picker offers).
 */
import type { OutboxKind } from '@eo/domain';
import { computed, ref, shallowRef } from 'vue';
import type { OutboxCounts, OutboxEntryView } from '../../shared/contract';
import { useBridge } from './bridge-provider';
import { readableError, type ReadableError } from './errors';

export function outboxList() {
  // Replaced whole on every refresh (500+ entries): no deep reactivity needed.
  const entries = shallowRef<OutboxEntryView[]>([]);
  const counts = ref<OutboxCounts | null>(null);
  /** From `outbox.changed` events newer than the last list read. */
  const pendingFromEvent = ref<number | null>(null);
  const loading = ref(false);
  /** Reading the list failed. */
  const error = ref<ReadableError | null>(null);

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

  /** An `outbox.changed` event: its count shows at once, the list follows. */
  function changed(pendingNow: number): void {
    eventSeq += 1;
    pendingFromEvent.value = pendingNow;
    void refresh();
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

  return {
    entries,
    counts,
    pendingFromEvent,
    loading,
    error,
    pending,
    needsAttention,
    byId,
    dependentsOf,
    unsent,
    changed,
    refresh,
  };
}
