import { buildCatalogRecord, createRng } from '@eo/domain/testing';
import { flushPromises } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { ContractError, decodeFootprints } from '../../../shared/contract';
import { createMemoryBridge, encodeRings, type MemoryBridge } from '../../__tests__/memory-bridge';
import { provideBridge } from '../bridge-provider';
import { PAGE_SIZE, useCatalogStore } from '../catalog-store';

let bridge: MemoryBridge;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 60 });
  provideBridge(bridge);
});

describe('catalog store: search', () => {
  it('loads the first page and every footprint, in the same order', async () => {
    const catalog = useCatalogStore();
    await catalog.search();
    expect(catalog.status).toBe('ready');
    expect(catalog.total).toBe(60);
    expect(catalog.footprints.ids).toHaveLength(60);
    // Row i of the list is footprint i of the map: the map can find a clicked scene's row.
    for (let i = 0; i < 60; i++) {
      expect(catalog.rowAt(i)?.id).toBe(catalog.footprints.ids[i]);
      expect(catalog.positions.get(catalog.footprints.ids[i]!)).toBe(i);
    }
    // Newest first by default.
    const times = Array.from({ length: 60 }, (_, i) => catalog.rowAt(i)!.datetime!);
    expect([...times].sort().reverse()).toEqual(times);
    expect(catalog.knownCollections.length).toBeGreaterThan(0);
  });

  it('sends the filters as a catalog search and gets the matching records', async () => {
    const catalog = useCatalogStore();
    catalog.filters.cloudMax = '20';
    catalog.filters.offNadirMax = '15';
    catalog.filters.sort = 'cloud-asc';
    await catalog.search();
    const sent = bridge.calls.find((c) => c.method === 'catalog.search')?.input as {
      query: Record<string, { lte: number }>;
      sort_by: Array<{ field: string }>;
    };
    expect(sent.query['eo:cloud_cover']).toEqual({ lte: 20 });
    expect(sent.query['view:off_nadir']).toEqual({ lte: 15 });
    expect(sent.sort_by[0]?.field).toBe('eo:cloud_cover');
    const expected = bridge.records.filter(
      (r) =>
        (r.details.properties['eo:cloud_cover'] ?? Infinity) <= 20 &&
        (r.details.properties['view:off_nadir'] ?? Infinity) <= 15,
    ).length;
    expect(catalog.total).toBe(expected);
    for (let i = 1; i < catalog.total; i++) {
      expect(catalog.rowAt(i)!.cloudCover!).toBeGreaterThanOrEqual(
        catalog.rowAt(i - 1)!.cloudCover!,
      );
    }
  });

  it('refuses invalid filters with a message per field and sends nothing', async () => {
    const catalog = useCatalogStore();
    catalog.filters.cloudMax = '150';
    catalog.filters.offNadirMax = '-3';
    catalog.filters.dateFrom = '2024-05-10';
    catalog.filters.dateTo = '2024-05-01';
    await catalog.search();
    expect(catalog.filterErrors).toEqual({
      cloudMax: 'Cloud cover is a percentage from 0 to 100.',
      offNadirMax: 'Off-nadir is an angle from 0 to 90 degrees.',
      dateTo: 'The end date is before the start date.',
    });
    expect(bridge.calls.filter((c) => c.method === 'catalog.search')).toHaveLength(0);
    expect(catalog.status).toBe('idle');
  });

  it('shows an empty result as empty, not as an error', async () => {
    const catalog = useCatalogStore();
    catalog.filters.collections = ['no-such-collection'];
    await catalog.search();
    expect(catalog.isEmpty).toBe(true);
    expect(catalog.error).toBeNull();
  });

  it('turns a failed search into a readable error with what to do', async () => {
    const catalog = useCatalogStore();
    bridge.failWith('catalog.search', new ContractError('internal', 'database is locked'));
    await catalog.search();
    expect(catalog.status).toBe('error');
    expect(catalog.error).toMatchObject({
      title: 'Something went wrong',
      message: 'database is locked',
    });
    expect(catalog.error?.hint).toMatch(/try again/i);
  });

  it('loads further pages as the list scrolls', async () => {
    setActivePinia(createPinia());
    bridge = createMemoryBridge({ records: PAGE_SIZE * 2 + 30 });
    provideBridge(bridge);
    const catalog = useCatalogStore();
    await catalog.search();
    expect(catalog.rowAt(PAGE_SIZE + 5)).toBeUndefined();
    await catalog.ensureRows(PAGE_SIZE * 2 - 3, PAGE_SIZE * 2 + 10);
    expect(catalog.rowAt(PAGE_SIZE + 5)?.id).toBe(catalog.footprints.ids[PAGE_SIZE + 5]);
    expect(catalog.rowAt(PAGE_SIZE * 2 + 9)?.id).toBe(catalog.footprints.ids[PAGE_SIZE * 2 + 9]);
    const offsets = bridge.calls
      .filter((c) => c.method === 'catalog.search')
      .map((c) => (c.input as { offset: number }).offset);
    expect(offsets).toEqual([0, PAGE_SIZE, PAGE_SIZE * 2]);
    // Already loaded: no second request.
    await catalog.ensureRows(PAGE_SIZE, PAGE_SIZE + 10);
    expect(bridge.calls.filter((c) => c.method === 'catalog.search')).toHaveLength(3);
  });

  it('does not ask again for the first page while its search is on the way', async () => {
    const catalog = useCatalogStore();
    // The first search leaves while the screen mounts; its list asks for rows meanwhile.
    const searching = catalog.search();
    expect(catalog.status).toBe('loading');
    await catalog.ensureRows(0, 20);
    await searching;
    expect(catalog.rowAt(0)?.id).toBe(catalog.footprints.ids[0]);
    const offsets = bridge.calls
      .filter((c) => c.method === 'catalog.search')
      .map((c) => (c.input as { offset: number }).offset);
    expect(offsets).toEqual([0]);
  });
});

describe('catalog store: selection, hover, detail', () => {
  it('opens a picked scene without putting it in the basket; the modifier fills the basket', async () => {
    const catalog = useCatalogStore();
    await catalog.search();
    const [a, b, c] = catalog.footprints.ids as [string, string, string];
    catalog.pick(a);
    // Looking at a scene is not choosing it for an order (issue 17, item 5).
    expect(catalog.selected).toEqual([]);
    expect(catalog.activeId).toBe(a);
    await flushPromises();
    expect(catalog.detailStatus).toBe('ready');
    expect((catalog.detail as { id: string }).id).toBe(a);
    catalog.pick(b, { additive: true });
    catalog.pick(c, { additive: true });
    await flushPromises();
    expect(catalog.selected).toEqual([b, c]);
    expect(catalog.activeId).toBe(a);
    catalog.pick(b, { additive: true });
    await flushPromises();
    expect(catalog.selected).toEqual([c]);
    await catalog.clearSelection();
    expect(catalog.selected).toEqual([]);
    await catalog.selectAllResults();
    expect(catalog.selected).toHaveLength(60);
    // Kept by the backend: what a restart reads back.
    expect(bridge.basket.ids).toHaveLength(60);
  });

  it('keeps the basket across searches, its hidden records still in it', async () => {
    const catalog = useCatalogStore();
    await catalog.search();
    const id = catalog.footprints.ids[3]!;
    await catalog.toggle(id);
    catalog.filters.collections = ['none-such'];
    await catalog.search();
    expect(catalog.positions.has(id)).toBe(false);
    expect(catalog.selected).toEqual([id]);
  });

  it('asks the list to scroll when a scene is picked on the map, not when picked in the list', async () => {
    const catalog = useCatalogStore();
    await catalog.search();
    const before = catalog.revealSeq;
    catalog.pick(catalog.footprints.ids[10]!, { source: 'list' });
    expect(catalog.revealSeq).toBe(before);
    catalog.pick(catalog.footprints.ids[20]!, { source: 'map' });
    expect(catalog.revealSeq).toBe(before + 1);
    // And the other way: a pick in the list asks the map to show it, a map pick does not.
    const shown = catalog.showOnMapSeq;
    catalog.pick(catalog.footprints.ids[30]!, { source: 'list' });
    catalog.pick(catalog.footprints.ids[31]!, { source: 'map' });
    expect(catalog.showOnMapSeq).toBe(shown + 1);
  });

  it('finds a row from the loaded pages even when footprints come in another order', async () => {
    const reversed: typeof bridge = {
      ...bridge,
      call: (async (method: string, input?: unknown) => {
        const out = await (bridge.call as (m: string, i?: unknown) => Promise<unknown>)(
          method,
          input,
        );
        if (method !== 'catalog.footprints') return out;
        const f = decodeFootprints(out as Uint8Array);
        const rings = f.ids.map((_, i) => [
          ...f.coords.subarray(f.offsets[i]! * 2, f.offsets[i + 1]! * 2),
        ]);
        return encodeRings([...f.ids].reverse(), rings.reverse());
      }) as typeof bridge.call,
    };
    provideBridge(reversed);
    const catalog = useCatalogStore();
    await catalog.search();
    const id = catalog.rowAt(3)!.id;
    expect(catalog.footprints.ids.indexOf(id)).toBe(56);
    expect(catalog.indexOfId(id)).toBe(3);
  });

  it('records where a hover came from', () => {
    const catalog = useCatalogStore();
    catalog.hover('x', 'map');
    expect([catalog.hoveredId, catalog.hoverSource]).toEqual(['x', 'map']);
    catalog.hover(null, 'map');
    expect([catalog.hoveredId, catalog.hoverSource]).toEqual([null, null]);
  });

  it('shows a detail error when the record cannot be read', async () => {
    const catalog = useCatalogStore();
    bridge.failWith('catalog.get', new ContractError('internal', 'disk I/O error'));
    await catalog.open('anything');
    expect(catalog.detailStatus).toBe('error');
    expect(catalog.detailError?.message).toBe('disk I/O error');
  });
});

describe('catalog store: saved searches', () => {
  it('saves the current filters under a unique name and runs them again', async () => {
    const catalog = useCatalogStore();
    expect(await catalog.saveCurrent('   ')).toBe('Give the search a name.');
    catalog.filters.cloudMax = '30';
    catalog.filters.collections = [bridge.records[0]!.details.collection!];
    expect(await catalog.saveCurrent('Low cloud')).toBeNull();
    expect(catalog.saved.map((s) => s.name)).toEqual(['Low cloud']);
    expect(await catalog.saveCurrent('Low cloud')).toMatch(/already a saved search/);

    catalog.resetFilters();
    await catalog.applySaved(catalog.saved[0]!.id);
    expect(catalog.filters.cloudMax).toBe('30');
    expect(catalog.filters.collections).toEqual([bridge.records[0]!.details.collection]);
    expect(catalog.status).toBe('ready');
    expect(catalog.query?.query?.['eo:cloud_cover']).toEqual({ lte: 30 });
    expect(catalog.query).not.toHaveProperty('limit');

    await catalog.removeSaved(catalog.saved[0]!.id);
    expect(catalog.saved).toEqual([]);
  });

  it('refuses to save invalid filters', async () => {
    const catalog = useCatalogStore();
    catalog.filters.cloudMax = 'lots';
    expect(await catalog.saveCurrent('Bad')).toBe('Fix the filters first.');
    expect(catalog.filterErrors.cloudMax).toBeDefined();
  });
});

describe('catalog store: results stay true to the mirror', () => {
  /** A bridge whose catalog answers are held back until released (a slow first answer). */
  function holdingBridge(inner: MemoryBridge) {
    let holding = false;
    const held: Array<() => void> = [];
    const call = (async (method: string, input?: unknown) => {
      const hold = holding && method.startsWith('catalog.');
      const out = await (inner.call as (m: string, i?: unknown) => Promise<unknown>)(method, input);
      if (hold) await new Promise<void>((resolve) => held.push(resolve));
      return out;
    }) as MemoryBridge['call'];
    return {
      bridge: { ...inner, on: inner.on, call } as MemoryBridge,
      hold: (on: boolean) => (holding = on),
      release: () => held.splice(0).forEach((r) => r()),
    };
  }

  it('re-runs the shown search when a sync finishes, so a first sync fills the catalog', async () => {
    setActivePinia(createPinia());
    bridge = createMemoryBridge({ records: 0 });
    provideBridge(bridge);
    const catalog = useCatalogStore();
    const stop = catalog.listen();
    await catalog.search();
    expect(catalog.total).toBe(0);
    const rng = createRng(3);
    for (let i = 0; i < 25; i++) bridge.records.push(buildCatalogRecord({}, { rng }));
    bridge.emit('sync.finished', bridge.syncStatus);
    await flushPromises();
    expect(catalog.status).toBe('ready');
    expect(catalog.total).toBe(25);
    expect(catalog.footprints.ids).toHaveLength(25);
    stop();
    expect(bridge.listenerCount('sync.finished')).toBe(0);
  });

  it('shows the synced records when the pictures start coming, before the sync ends', async () => {
    setActivePinia(createPinia());
    bridge = createMemoryBridge({ records: 0 });
    provideBridge(bridge);
    const catalog = useCatalogStore();
    const stop = catalog.listen();
    await catalog.search();
    const searches = () => bridge.calls.filter((c) => c.method === 'catalog.search').length;
    const before = searches();
    const rng = createRng(4);
    for (let i = 0; i < 7; i++) bridge.records.push(buildCatalogRecord({}, { rng }));
    bridge.emit('sync.imagery', { seen: 1, total: 7, bytes: 10 });
    await flushPromises();
    expect(catalog.total).toBe(7);
    expect(searches()).toBe(before + 1);
    // Later pictures of the same sync search no more; its end does, and the next sync's first.
    bridge.emit('sync.imagery', { seen: 2, total: 7, bytes: 20 });
    await flushPromises();
    expect(searches()).toBe(before + 1);
    bridge.emit('sync.finished', bridge.syncStatus);
    bridge.emit('sync.imagery', { seen: 1, total: 1, bytes: 5 });
    await flushPromises();
    expect(searches()).toBe(before + 3);
    stop();
    expect(bridge.listenerCount('sync.imagery')).toBe(0);
  });

  it('applies only the latest answer when refreshes overlap', async () => {
    setActivePinia(createPinia());
    const inner = createMemoryBridge({ records: 0 });
    const h = holdingBridge(inner);
    provideBridge(h.bridge);
    const catalog = useCatalogStore();
    catalog.listen();
    await catalog.search();
    h.hold(true);
    inner.emit('sync.finished', inner.syncStatus); // answered against 0 records, held back
    await flushPromises();
    h.hold(false);
    const rng = createRng(5);
    for (let i = 0; i < 12; i++) inner.records.push(buildCatalogRecord({}, { rng }));
    inner.emit('sync.finished', inner.syncStatus);
    await flushPromises();
    expect(catalog.total).toBe(12);
    h.release(); // the older, emptier answer arrives last
    await flushPromises();
    expect(catalog.total).toBe(12);
    expect(catalog.footprints.ids).toHaveLength(12);
  });

  it('marks the shown results stale while the filters are invalid, until a valid search runs', async () => {
    const catalog = useCatalogStore();
    catalog.listen();
    await catalog.search();
    expect(catalog.stale).toBe(false);
    catalog.filters.cloudMax = '150';
    await catalog.search();
    expect(catalog.stale).toBe(true);
    expect(catalog.total).toBe(60); // the old results stay, marked
    // A sync refreshes the shown (previous) search; they are still not the filters' results.
    bridge.emit('sync.finished', bridge.syncStatus);
    await flushPromises();
    expect(catalog.stale).toBe(true);
    catalog.filters.cloudMax = '20';
    await catalog.search();
    expect(catalog.stale).toBe(false);
  });

  it('is not stale before any search, even with invalid filters', async () => {
    const catalog = useCatalogStore();
    catalog.filters.cloudMax = '150';
    await catalog.search();
    expect(catalog.stale).toBe(false);
  });
});
