/**
 * The outbox as the screens see it: every queued create with its state, the pending count for
 * the header badge, "Submit all" with live progress, the last batch's result for the
 * notification, and the entry being edited (the Outbox screen hands it to the kind's form,
 * which saves with `outbox.edit` instead of `outbox.enqueue`).
 */
import type { OutboxKind } from '@eo/domain';
import { defineStore } from 'pinia';
import type {
  FlushProgress,
  FlushResult,
  OutboxCounts,
  OutboxCreate,
  OutboxEntryView,
} from '../../shared/work';
import { useBridge } from './bridge-provider';
import { readableError, type ReadableError } from './errors';

/** The screen whose form creates (and edits) each kind. */
export const SCREEN_FOR_KIND: Record<OutboxKind, string> = {
  order: 'orders',
  aoi: 'aois',
  index: 'indices',
  visualization: 'indices',
  delivery: 'deliveries',
  job: 'jobs',
};

export const useOutboxStore = defineStore('outbox', {
  state: () => ({
    entries: [] as OutboxEntryView[],
    counts: null as OutboxCounts | null,
    /** From `outbox.changed` events, before the list is loaded. */
    pendingFromEvent: null as number | null,
    loading: false,
    error: null as ReadableError | null,
    flushing: false,
    progress: null as FlushProgress | null,
    /** The last finished batch (also from auto-flushes), for the notification. */
    lastResult: null as FlushResult | null,
    editing: null as OutboxEntryView | null,
  }),
  getters: {
    /** Waiting to be sent: queued and sending. */
    pending(s): number {
      if (s.counts) return (s.counts.queued ?? 0) + (s.counts.sending ?? 0);
      return s.pendingFromEvent ?? 0;
    },
    needsAttention: (s): number => (s.counts?.failed ?? 0) + (s.counts?.blocked ?? 0),
    byId: (s) => new Map(s.entries.map((e) => [e.id, e])),
    /** Entries of a kind not sent yet (for `local:<id>` pickers). */
    unsent: (s) => (kind: OutboxKind) =>
      s.entries.filter((e) => e.kind === kind && e.state !== 'sent' && e.state !== 'cancelled'),
  },
  actions: {
    listen(): () => void {
      const bridge = useBridge();
      const offs = [
        bridge.on('outbox.changed', (p) => {
          this.pendingFromEvent = p.pending;
          void this.refresh();
        }),
        bridge.on('outbox.progress', (p) => {
          this.progress = p;
        }),
        bridge.on('outbox.finished', (r) => {
          this.lastResult = r;
          this.progress = null;
          void this.refresh();
        }),
      ];
      return () => offs.forEach((off) => off());
    },
    async refresh(): Promise<void> {
      this.loading = true;
      try {
        const list = await useBridge().call('outbox.list');
        this.entries = list.entries;
        this.counts = list.counts;
        this.error = null;
      } catch (err) {
        this.error = readableError(err);
      } finally {
        this.loading = false;
      }
    },
    /** Queues a create; rejects with the ContractError (field issues) for the form to show. */
    async enqueue(create: OutboxCreate): Promise<OutboxEntryView> {
      const entry = await useBridge().call('outbox.enqueue', create);
      await this.refresh();
      return entry;
    },
    /** Saves the entry being edited; rejects like `enqueue`. */
    async saveEdit(id: string, input: Record<string, unknown>): Promise<OutboxEntryView> {
      const entry = await useBridge().call('outbox.edit', { id, input });
      if (this.editing?.id === id) this.editing = null;
      await this.refresh();
      return entry;
    },
    startEdit(entry: OutboxEntryView): void {
      this.editing = entry;
    },
    stopEdit(): void {
      this.editing = null;
    },
    async retry(id: string): Promise<void> {
      await this.act(() => useBridge().call('outbox.retry', { id }));
    },
    async cancel(id: string): Promise<void> {
      await this.act(() => useBridge().call('outbox.cancel', { id }));
    },
    /** "Submit all". The result also arrives as `outbox.finished` (lastResult). */
    async flush(): Promise<FlushResult | null> {
      this.flushing = true;
      this.error = null;
      this.progress = { sent: 0, failed: 0, blocked: 0, remaining: this.pending };
      try {
        const result = await useBridge().call('outbox.flush');
        this.lastResult = result;
        return result;
      } catch (err) {
        this.error = readableError(err);
        return null;
      } finally {
        this.flushing = false;
        this.progress = null;
        await this.refresh();
      }
    },
    async act(fn: () => Promise<unknown>): Promise<void> {
      this.error = null;
      try {
        await fn();
      } catch (err) {
        this.error = readableError(err);
      }
      await this.refresh();
    },
  },
});
