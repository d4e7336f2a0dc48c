/**
 * The catalog browser's state: filters, the current search (total, rows fetched page by page for
 * the virtual list, every footprint for the map), hover, the record open in the detail panel
 * (inspecting), and saved searches. The basket (what an order or delivery takes) is
 * `basket-store.ts`; `selected` here reads it. Map and list never talk to each other: both read
 * and write hover, the open record and the basket here.
 *
 * Large payloads (footprints, row pages) are kept in shallowRef-like raw objects: 50,000
 * footprints made deeply reactive would cost more than drawing them.
 */
import { listenForPictures } from './pictures-arrival';
import { defineStore } from 'pinia';
import { markRaw } from 'vue';
import { CatalogSearchRequest, type CatalogSearchRequestInput } from '@eo/domain';
import type {
  CatalogRecordView,
  CatalogRow,
  FootprintSet,
  SavedSearch,
} from '../../shared/contract';
// The contract's own files, not its index: that brings every method's schemas (initial JS).
import { decodeFootprints } from '../../shared/contract/footprints-wire';
import {
  buildQuery,
  emptyFilters,
  filtersFromQuery,
  type CatalogFilters,
  type FilterField,
  type LonLatBox,
} from './catalog-filters';
import { useBasketStore } from './basket-store';
import { useBridge } from './bridge-provider';
import { IdPositions } from './id-positions';
import { readableError, type ReadableError } from './errors';

export const PAGE_SIZE = 200;

const emptyFootprints = (): FootprintSet => ({
  ids: [],
  offsets: new Uint32Array(1),
  coords: new Float32Array(0),
});

type Status = 'idle' | 'loading' | 'ready' | 'error';

export const useCatalogStore = defineStore('catalog', {
  state: () => ({
    filters: emptyFilters() as CatalogFilters,
    filterErrors: {} as Partial<Record<FilterField, string>>,
    /** The map's current view, used when the area filter is "map view". */
    viewBox: null as LonLatBox | null,
    /** The request of the results shown (without paging). */
    query: null as CatalogSearchRequestInput | null,
    status: 'idle' as Status,
    error: null as ReadableError | null,
    total: 0,
    /** Loaded row pages by page number (raw: read-only data). */
    pages: markRaw(new Map<number, CatalogRow[]>()),
    /** Bumped when a page arrives, so the list re-renders. */
    pagesVersion: 0,
    /** Every match's ring, decoded from the backend's binary answer (`footprints-wire.ts`). */
    footprints: markRaw(emptyFootprints()) as FootprintSet,
    /** Row position of each id, in the search's sort order. */
    positions: markRaw(new IdPositions([])),
    hoveredId: null as string | null,
    /** Where the hover came from: the map does not scroll itself, the list does not. */
    hoverSource: null as 'map' | 'list' | null,
    activeId: null as string | null,
    /** Bumped when the list should scroll to activeId (a click on the map). */
    revealSeq: 0,
    /** Bumped when the map should bring activeId into view (a pick in the list). */
    showOnMapSeq: 0,
    detail: null as CatalogRecordView | null,
    detailStatus: 'idle' as Status,
    detailError: null as ReadableError | null,
    saved: [] as SavedSearch[],
    savedError: null as ReadableError | null,
    /** Collections seen in results, offered in the collections filter. */
    knownCollections: [] as string[],
    /** Platforms seen in results (the platform filter's choices). */
    knownPlatforms: [] as string[],
  }),
  getters: {
    /** The basket's records (the orders' and deliveries' "selection"). */
    selected: (): string[] => useBasketStore().ids,
    selectedSet: (): ReadonlySet<string> => useBasketStore().idSet,
    isEmpty: (s) => s.status === 'ready' && s.total === 0,
    /**
     * The filters were refused while results of an earlier search are shown: those results
     * no longer answer the filters on screen. Goes when a valid search runs.
     */
    stale: (s) => s.query !== null && Object.keys(s.filterErrors).length > 0,
  },
  actions: {
    /**
     * Re-run the shown search when the mirror changes, so a first sync fills the catalog
     * without pressing Search. Only sync writes catalog rows (`records.changed` names no
     * catalog kind), so `sync.finished` is the signal, and the first `sync.imagery` of a sync
     * (the records are done, its pictures are coming). Returns the unsubscribe.
     */
    listen(): () => void {
      // The records are in before the pictures: the imagery pass's first report (after the
      // records, on the first picture) shows them, so a first start need not wait for every
      // thumbnail; once per sync.
      let shownBeforePictures = false;
      const offs = [
        useBridge().on('sync.imagery', () => {
          if (shownBeforePictures) return;
          shownBeforePictures = true;
          void this.refresh();
        }),
        useBridge().on('sync.finished', () => {
          shownBeforePictures = false;
          void this.refresh();
        }),
        useBasketStore().listen(),
        listenForPictures(useBridge()),
      ];
      return () => offs.forEach((off) => off());
    },

    /** Run the shown search again (the mirror changed); before any search, nothing to do. */
    async refresh(): Promise<void> {
      if (this.query) await this.runQuery(this.query);
    },

    setViewBox(box: LonLatBox | null): void {
      this.viewBox = box;
    },

    /** Run the filters' search: first page and all footprints. */
    async search(): Promise<void> {
      const filters: CatalogFilters =
        this.filters.area.kind === 'view' && this.viewBox
          ? { ...this.filters, area: { kind: 'view', bbox: this.viewBox } }
          : this.filters;
      const built = buildQuery(filters);
      if (!built.ok) {
        this.filterErrors = built.errors;
        return;
      }
      this.filterErrors = {};
      await this.runQuery(built.query);
    },

    async runQuery(query: CatalogSearchRequestInput): Promise<void> {
      const bridge = useBridge();
      // For the benchmark (bench/ui.ts): search start to results shown.
      globalThis.performance?.mark?.('eo:search-start');
      this.query = query;
      this.status = 'loading';
      this.error = null;
      const seq = ++searchSeq;
      // Its first page comes with it: the list, mounting meanwhile, does not ask for it again.
      const firstPage = `${seq}:0`;
      pending.add(firstPage);
      try {
        const [page, bytes] = await Promise.all([
          bridge.call('catalog.search', { ...query, limit: PAGE_SIZE, offset: 0 }),
          bridge.call('catalog.footprints', query),
        ]);
        if (seq !== searchSeq) return; // a newer search won
        // Checked here (lengths, counts, finite coordinates): unreadable bytes fail the search.
        const footprints = decodeFootprints(bytes);
        const pages = new Map<number, CatalogRow[]>([[0, page.items]]);
        const positions = new IdPositions(footprints.ids);
        this.pages = markRaw(pages);
        this.pagesVersion++;
        this.footprints = markRaw(footprints);
        this.positions = markRaw(positions);
        this.total = page.total;
        this.noteCollections(page.items);
        this.status = 'ready';
        // The basket outlives searches (basket-store.ts): its hidden records are marked there.
        if (this.activeId && !positions.has(this.activeId)) this.closeDetail();
      } catch (err) {
        if (seq !== searchSeq) return;
        this.status = 'error';
        this.error = readableError(err);
      } finally {
        pending.delete(firstPage);
      }
    },

    /** Make sure rows [start, end) are loaded (the list calls this as it scrolls). */
    async ensureRows(start: number, end: number): Promise<void> {
      if (!this.query) return;
      const first = Math.floor(start / PAGE_SIZE);
      const last = Math.floor(Math.max(start, end - 1) / PAGE_SIZE);
      const seq = searchSeq;
      const loads: Promise<void>[] = [];
      for (let p = first; p <= last; p++) {
        if (this.pages.has(p) || pending.has(`${seq}:${p}`)) continue;
        pending.add(`${seq}:${p}`);
        loads.push(
          useBridge()
            .call('catalog.search', { ...this.query, limit: PAGE_SIZE, offset: p * PAGE_SIZE })
            .then((page) => {
              if (seq !== searchSeq) return;
              this.pages.set(p, page.items);
              this.pagesVersion++;
              this.noteCollections(page.items);
            })
            .catch((err: unknown) => {
              if (seq === searchSeq) this.error = readableError(err);
            })
            .finally(() => pending.delete(`${seq}:${p}`)),
        );
      }
      await Promise.all(loads);
    },

    /**
     * Row position of an id: from the loaded pages, else from the footprints' order (the same
     * as the list's when the backend returns footprints in the query's sort order).
     */
    indexOfId(id: string): number | undefined {
      for (const [page, rows] of this.pages) {
        const i = rows.findIndex((r) => r.id === id);
        if (i >= 0) return page * PAGE_SIZE + i;
      }
      return this.positions.get(id);
    },

    rowAt(index: number): CatalogRow | undefined {
      return this.pages.get(Math.floor(index / PAGE_SIZE))?.[index % PAGE_SIZE];
    },

    noteCollections(rows: readonly CatalogRow[]): void {
      const known = new Set(this.knownCollections);
      let added = false;
      for (const r of rows) {
        if (r.collection && !known.has(r.collection)) {
          known.add(r.collection);
          added = true;
        }
      }
      if (added) this.knownCollections = [...known].sort();
      const platforms = new Set(this.knownPlatforms);
      const before = platforms.size;
      for (const r of rows) if (r.platform) platforms.add(r.platform);
      if (platforms.size !== before) this.knownPlatforms = [...platforms].sort();
    },

    hover(id: string | null, source: 'map' | 'list'): void {
      this.hoveredId = id;
      this.hoverSource = id === null ? null : source;
    },

    /**
     * A click (map or list) or Enter. Plain: open it to look at it (detail panel, map
     * highlight); the basket is left alone. Additive (Ctrl/Cmd/Shift): put it in the basket or
     * take it out.
     */
    pick(id: string, opts: { additive?: boolean; source?: 'map' | 'list' } = {}): void {
      if (opts.additive) void this.toggle(id);
      else void this.open(id);
      if (opts.source === 'map') this.revealSeq++;
      if (opts.source === 'list' && !opts.additive) this.showOnMapSeq++;
    },

    /** In the basket or out of it. */
    toggle(id: string): Promise<void> {
      return useBasketStore().toggle(id);
    },

    /** Empties the basket, records the search hides included. */
    clearSelection(): Promise<void> {
      return useBasketStore().clear();
    },

    /** Puts every result of the current search in the basket. */
    selectAllResults(): Promise<void> {
      return useBasketStore().add(this.footprints.ids);
    },

    async open(id: string): Promise<void> {
      this.activeId = id;
      this.detailStatus = 'loading';
      this.detailError = null;
      try {
        const record = await useBridge().call('catalog.get', { id });
        if (this.activeId !== id) return;
        this.detail = record;
        this.detailStatus = 'ready';
      } catch (err) {
        if (this.activeId !== id) return;
        this.detail = null;
        this.detailStatus = 'error';
        this.detailError = readableError(err);
      }
    },

    closeDetail(): void {
      this.activeId = null;
      this.detail = null;
      this.detailStatus = 'idle';
      this.detailError = null;
    },

    resetFilters(): void {
      this.filters = emptyFilters();
      this.filterErrors = {};
    },

    async loadSaved(): Promise<void> {
      try {
        this.saved = await useBridge().call('savedSearches.list');
        this.savedError = null;
      } catch (err) {
        this.savedError = readableError(err);
      }
    },

    /** Save the current filters under a name; returns an error message or null. */
    async saveCurrent(name: string): Promise<string | null> {
      const trimmed = name.trim();
      if (!trimmed) return 'Give the search a name.';
      if (this.saved.some((s) => s.name === trimmed)) {
        return `There is already a saved search called “${trimmed}”.`;
      }
      const filters: CatalogFilters =
        this.filters.area.kind === 'view' && this.viewBox
          ? { ...this.filters, area: { kind: 'view', bbox: this.viewBox } }
          : this.filters;
      const built = buildQuery(filters);
      if (!built.ok) {
        this.filterErrors = built.errors;
        return 'Fix the filters first.';
      }
      try {
        const saved = await useBridge().call('savedSearches.save', {
          name: trimmed,
          query: built.query,
        });
        this.saved = [...this.saved.filter((s) => s.id !== saved.id), saved];
        return null;
      } catch (err) {
        return readableError(err).message;
      }
    },

    async applySaved(id: string): Promise<void> {
      const s = this.saved.find((x) => x.id === id);
      if (!s) return;
      const parsed = CatalogSearchRequest.safeParse(s.query);
      if (!parsed.success) {
        this.savedError = {
          title: 'This saved search cannot be run',
          message: parsed.error.issues[0]?.message ?? 'its query is not valid',
          hint: 'Delete it and save the search again.',
          code: 'invalid_argument',
        };
        return;
      }
      this.savedError = null;
      await this.applySearch(parsed.data);
    },

    /** A saved search's or a link's filters, set in the form and run. */
    async applySearch(search: CatalogSearchRequest): Promise<void> {
      // Paging is the list's business, not part of a saved search.
      const { limit: _limit, offset: _offset, ...query } = search;
      this.filters = filtersFromQuery(query);
      this.filterErrors = {};
      await this.runQuery(query);
    },

    async removeSaved(id: string): Promise<void> {
      try {
        await useBridge().call('savedSearches.remove', { id });
        this.saved = this.saved.filter((s) => s.id !== id);
      } catch (err) {
        this.savedError = readableError(err);
      }
    },
  },
});

/** Search generation: answers of older searches are dropped. Module-level: not state. */
let searchSeq = 0;
const pending = new Set<string>();
