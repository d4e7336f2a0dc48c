/**
 * The basket (issue 17, item 5): catalog records, and scenes of saved archive searches (issue
 * 26: archive entries, with their outline), put aside for an order or a delivery. Apart
 * from the record open for inspection (the catalog store's `activeId`): looking at a record
 * never adds it. The backend keeps it (`basket.*`, in the desktop store), so it outlives
 * searches and restarts; a queued order or delivery takes out what it consumed and says so
 * (`basket.changed`), which becomes `notice`. Also holds which records were already ordered
 * (`catalog.ordered`) for the list's "Ordered" badge.
 */
import { defineStore } from 'pinia';
import { markRaw } from 'vue';
import type { Basket, BasketEntry } from '../../shared/contract';
// The basket's limits alone: its contract, like the contract's index, builds its schemas.
import { MAX_BASKET } from '../../areas/basket/limits';
import { useBridge } from './bridge-provider';
import { readableError, type ReadableError } from './errors';

/** What a queued order or delivery took out of the basket, in words. */
export function consumedNotice(count: number, by: 'order' | 'delivery'): string {
  const what = count === 1 ? '1 record left' : `${count} records left`;
  return `${what} the basket: the queued ${by} takes ${count === 1 ? 'it' : 'them'}.`;
}

/** How long the "records left the basket" notice shows: it reports, it asks for nothing. */
export const BASKET_NOTICE_MS = 12_000;

export const useBasketStore = defineStore('basket', {
  state: () => ({
    entries: [] as BasketEntry[],
    /** Catalog records whose scene is in a placed or queued order (raw: read-only). */
    ordered: markRaw(new Set<string>()) as ReadonlySet<string>,
    error: null as ReadableError | null,
    /** What the last queued order or delivery took out; null once dismissed. */
    notice: null as string | null,
    /** Bumped with each notice, so a toast shows again for the same words. */
    noticeSeq: 0,
  }),
  getters: {
    ids: (s): string[] => s.entries.map((e) => e.id),
    idSet: (s): ReadonlySet<string> => new Set(s.entries.map((e) => e.id)),
  },
  actions: {
    /** Follow the backend: consumed records, and what makes a record "ordered". */
    listen(): () => void {
      const bridge = useBridge();
      const offs = [
        bridge.on('basket.changed', (p) => {
          this.entries = p.entries;
          this.notice = consumedNotice(p.consumed.length, p.by);
          this.noticeSeq++;
          void this.loadOrdered();
        }),
        bridge.on('outbox.changed', () => void this.loadOrdered()),
        bridge.on('sync.finished', () => void this.load()),
        bridge.on('records.changed', (p) => {
          if (p.kinds.includes('orders')) void this.loadOrdered();
        }),
      ];
      void this.load();
      return () => offs.forEach((off) => off());
    },

    async load(): Promise<void> {
      await this.apply(useBridge().call('basket.list'));
      await this.loadOrdered();
    },

    /**
     * Coalesced: one read running, at most one more after it (a batch of the outbox changes it
     * once per entry).
     */
    async loadOrdered(): Promise<void> {
      if (orderedRead) {
        orderedAgain = true;
        return orderedRead;
      }
      orderedRead = (async () => {
        do {
          orderedAgain = false;
          try {
            const { ids } = await useBridge().call('catalog.ordered');
            this.ordered = markRaw(new Set(ids));
          } catch {
            // Only a badge: the next change tries again.
          }
        } while (orderedAgain);
      })();
      try {
        await orderedRead;
      } finally {
        orderedRead = null;
      }
    },

    /** Adds records; a basket that would pass its limit stays as it is, with the reason. */
    async add(ids: readonly string[]): Promise<void> {
      const have = this.idSet;
      const fresh = [...new Set(ids)].filter((id) => !have.has(id));
      if (fresh.length === 0) return;
      if (this.entries.length + fresh.length > MAX_BASKET) {
        this.error = {
          title: 'The basket is full',
          message: `It holds at most ${MAX_BASKET} records; ${this.entries.length} are in it and ${fresh.length} more would not fit.`,
          hint: 'Order or deliver what is in it, or remove some records first.',
          code: 'invalid_argument',
        };
        return;
      }
      // At once on screen; the backend's answer then replaces it.
      const addedAt = new Date().toISOString();
      this.entries = [
        ...this.entries,
        ...fresh.map((id) => ({
          id,
          sceneId: null,
          collection: null,
          datetime: null,
          platform: null,
          inMirror: true,
          addedAt,
        })),
      ];
      await this.apply(useBridge().call('basket.add', { ids: fresh }));
    },

    /** Scenes a saved archive search keeps (each an archive entry, `basket.addArchive`). */
    async addArchive(searchId: string, sceneIds: readonly string[]): Promise<void> {
      const have = this.idSet;
      const fresh = [...new Set(sceneIds)].filter((id) => !have.has(id));
      if (fresh.length === 0) return;
      await this.apply(useBridge().call('basket.addArchive', { searchId, sceneIds: fresh }));
    },

    async remove(ids: readonly string[]): Promise<void> {
      if (ids.length === 0) return;
      const gone = new Set(ids);
      this.entries = this.entries.filter((e) => !gone.has(e.id));
      await this.apply(useBridge().call('basket.remove', { ids: [...gone] }));
    },

    async clear(): Promise<void> {
      this.entries = [];
      await this.apply(useBridge().call('basket.clear'));
    },

    async toggle(id: string): Promise<void> {
      if (this.idSet.has(id)) await this.remove([id]);
      else await this.add([id]);
    },

    dismissNotice(): void {
      this.notice = null;
    },

    /** Takes the backend's basket; on failure says why and shows what it holds. */
    async apply(call: Promise<Basket>): Promise<void> {
      const mine = ++applySeq;
      try {
        const basket = await call;
        if (mine !== applySeq) return; // a later change answers with the newer basket
        this.entries = basket.entries;
        this.error = null;
      } catch (err) {
        this.error = readableError(err);
        try {
          const basket = await useBridge().call('basket.list');
          if (mine === applySeq) this.entries = basket.entries;
        } catch {
          // Unreachable backend: keep what is shown; the error says so.
        }
      }
    },
  },
});

/** Answers of older basket changes are dropped. Module-level: not state. */
let applySeq = 0;
/** The `catalog.ordered` read running, and whether a change came in meanwhile. */
let orderedRead: Promise<void> | null = null;
let orderedAgain = false;
