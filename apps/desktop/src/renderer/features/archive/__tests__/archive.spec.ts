/**
 * The Archive screen over the memory bridge: saving a search from the form (choices from the
 * reference lists, the map's view as the area), errors in the form's words, the saved searches
 * listed, a search's kept scenes with their thumbnails, on the map (outlines with their pictures,
 * tied to the list both ways), deleting one; a kept scene put in the basket and ordered from it.
 */
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { lookupsFrom } from '../../../__tests__/work-fixtures';
import {
  expectQuiet,
  expectSummaryOnSubmit,
  requiredControls,
} from '../../../__tests__/form-words-checks';
import type { ArchiveSceneRow, SavedArchiveSearchView } from '../../../../shared/contract';
import { provideBridge } from '../../../stores/bridge-provider';
import { useBasketStore } from '../../../stores/basket-store';
import BasketPanel from '../../catalog/BasketPanel.vue';
import { useCatalogStore } from '../../../stores/catalog-store';
import { useComposerStore } from '../../orders/composer-store';
import { provideQuicklookUrl } from '../../../ui/quicklook-source';
import { markResultsShown } from '../../../ui/first-screen';
import type L from 'leaflet';
import GeometryMap from '../../../map/GeometryMap.vue';
import type { QuicklookLayer } from '../../../map/quicklook-layer';
import ArchiveScreen from '../ArchiveScreen.vue';
import { ARCHIVE_FIELDS, archiveFormOf, checkArchiveForm, emptyArchiveForm } from '../archive-form';

let bridge: MemoryBridge;
let wrapper: VueWrapper | null = null;
const VIEW: [number, number, number, number] = [11, 44, 12, 45];

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 0 });
  provideBridge(bridge);
  provideQuicklookUrl((id, variant) => `quicklook://${variant}/${id}`);
  // The pictures of a screen past the first (they wait for it: ui/first-screen.ts).
  markResultsShown();
  bridge.work.lookups = lookupsFrom({
    satellites: [
      {
        id: 'sat-aurora-1',
        bands: [],
        collections: [{ id: 'col-aurora-l2a', name: 'Aurora L2A' }],
      },
    ],
    names: { 'sat-aurora-1': 'Aurora-1' },
  });
  useCatalogStore().viewBox = VIEW;
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
  provideQuicklookUrl(null);
});

async function mountScreen(): Promise<VueWrapper> {
  wrapper = mount(ArchiveScreen, { attachTo: document.body });
  await flushPromises();
  return wrapper;
}

async function fill(w: VueWrapper, values: Record<string, string>): Promise<void> {
  for (const [name, value] of Object.entries(values)) {
    const el = w.find(`[data-test="archive-form"] [name="${name}"]`);
    await el.setValue(value);
    await el.trigger('change');
  }
}

const submit = (w: VueWrapper) => w.find('[data-test="archive-form"]').trigger('submit');

describe('the Archive screen', () => {
  it('says nothing before a submit, then lists what to correct in its own words', async () => {
    const w = await mountScreen();
    const form = w.find('[data-test="archive-form"]');
    expectQuiet(form);
    expect(requiredControls(form)).toEqual([
      'archive-name',
      'archive-satellite_id',
      'archive-collection_id',
    ]);
    const lines = await expectSummaryOnSubmit(form, () => submit(w));
    expect(lines).toEqual([
      'Name: Give the search a name',
      'Satellite: Choose a satellite',
      'Collection: Choose a collection',
    ]);
    expect(bridge.calls.some((c) => c.method === 'archive.save')).toBe(false);
  });

  it('saves a search over the map view (the collection of the chosen satellite filled in) and lists it', async () => {
    const w = await mountScreen();
    await fill(w, {
      name: 'Po floods',
      satellite_id: 'sat-aurora-1',
      start: '2024-04-01',
      end: '2024-05-31',
      cloudMax: '20',
      maxScenes: '50',
    });
    expect(
      (w.find('[name="collection_id"]').element as HTMLInputElement).value,
      'the satellite has one collection',
    ).toBe('col-aurora-l2a');
    await submit(w);
    await flushPromises();
    const saved = bridge.calls.find((c) => c.method === 'archive.save')!.input;
    expect(saved).toEqual({
      name: 'Po floods',
      search: {
        satellite: { collection_id: 'col-aurora-l2a', satellite_id: 'sat-aurora-1' },
        start_date: '2024-04-01T00:00:00Z',
        end_date: '2024-05-31T23:59:59Z',
        filters: [{ id: 'eo:cloud_cover', min: 0, max: 20 }],
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [11, 44],
              [12, 44],
              [12, 45],
              [11, 45],
              [11, 44],
            ],
          ],
        },
      },
      maxScenes: 50,
    });
    expect(w.text()).toContain('Saved “Po floods”');
    const rows = w.findAll('[data-test="archive-search"]');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.text()).toContain('Po floods');
    expect(rows[0]!.text()).toContain('not synced yet');
    expect(w.find('[data-test="archive-no-scenes"]').exists()).toBe(true);
    // No scenes yet: the hint says why, and no empty world map takes the room.
    expect(w.find('[data-test="archive-map"]').exists()).toBe(false);
  });

  it('shows the kept scenes of the chosen search with thumbnails, and deletes a search', async () => {
    bridge.archive.searches = [
      {
        ...searchA1(),
        pass: {
          state: 'complete',
          scenes: 2,
          total: 80,
          lastCompleteAt: '2024-05-17T10:00:00.000Z',
          error: null,
        },
      },
    ];
    bridge.archive.scenes.set('a1', [
      {
        id: 'AUR1_001',
        rank: 0,
        satelliteId: 'sat-aurora-1',
        collectionId: 'col-aurora-l2a',
        datetime: '2024-05-10T10:30:00.000Z',
        cloudCover: 12.5,
        bbox: [11, 44, 12, 45],
        footprint: [11, 44, 12, 44, 12, 45, 11, 45],
        thumbnail: true,
      },
      {
        id: 'AUR1_002',
        rank: 1,
        satelliteId: 'sat-aurora-1',
        collectionId: 'col-aurora-l2a',
        datetime: null,
        cloudCover: null,
        bbox: null,
        footprint: null,
        thumbnail: false,
      },
    ]);
    const w = await mountScreen();
    expect(w.find('[data-test="archive-search"]').text()).toContain('2 scenes kept');
    const scenes = w.findAll('[data-test="archive-scene"]');
    expect(scenes).toHaveLength(2);
    expect(scenes[0]!.find('img').attributes('src')).toBe('quicklook://thumbnail/AUR1_001');
    expect(scenes[0]!.text()).toContain('12.5 % cloud');
    expect(scenes[0]!.text()).toContain('sat-aurora-1');
    expect(scenes[1]!.text()).toContain('date unknown');
    expect(scenes[1]!.text()).toContain('cloud unknown');

    await w.find('[data-test="archive-delete"]').trigger('click');
    await flushPromises();
    expect(bridge.calls.filter((c) => c.method === 'archive.remove')).toEqual([
      { method: 'archive.remove', input: { id: 'a1' } },
    ]);
    expect(w.findAll('[data-test="archive-search"]')).toHaveLength(0);
    expect(w.findAll('[data-test="archive-scene"]')).toHaveLength(0);
  });

  it('draws the kept scenes on the map with their pictures, tied to the list both ways', async () => {
    bridge.archive.searches = [searchA1()];
    bridge.archive.scenes.set('a1', [
      sceneRow('AUR1_001', [11, 44, 12, 44, 12, 45, 11, 45]),
      sceneRow('AUR1_002', [11.5, 44.5, 12.5, 44.5, 12.5, 45.5, 11.5, 45.5]),
      sceneRow('AUR1_003', null),
    ]);
    const w = await mountScreen();
    const map = w.findComponent(GeometryMap);
    const {
      map: leaflet,
      layers,
      quicklooks,
    } = (
      map.vm as unknown as {
        internals: () => {
          map: L.Map;
          layers: Map<string, L.GeoJSON>;
          quicklooks: QuicklookLayer | null;
        };
      }
    ).internals();
    // A scene without an outline is listed, not drawn.
    expect([...layers.keys()]).toEqual(['AUR1_001', 'AUR1_002']);
    expect(quicklooks && leaflet.hasLayer(quicklooks), 'the pictures layer is on the map').toBe(
      true,
    );
    // The map fits the scenes once laid out (jsdom lays nothing out: a size is given).
    const box = leaflet.getContainer();
    Object.defineProperty(box, 'clientWidth', { value: 600, configurable: true });
    Object.defineProperty(box, 'clientHeight', { value: 400, configurable: true });
    leaflet.invalidateSize({ pan: false });
    expect(leaflet.getBounds().contains([45.5, 12.5])).toBe(true);
    expect(leaflet.getZoom()).toBeGreaterThan(5);
    const c = leaflet.getCenter();
    expect([c.lat, c.lng].map((v) => Math.round(v * 10) / 10)).toEqual([44.8, 11.8]);

    // A row hovered: its outline highlighted, its picture on top.
    const rows = w.findAll('[data-test="archive-scene"]');
    await rows[1]!.trigger('mouseenter');
    await flushPromises();
    expect(map.props('highlightedId')).toBe('AUR1_002');
    expect((layers.get('AUR1_002')!.getLayers()[0] as L.Path).options.color).toBe('#ea580c');
    expect(quicklooks!.topId).toBe('AUR1_002');
    await rows[1]!.trigger('mouseleave');
    // Focus does the same for the keyboard.
    await rows[0]!.find('[data-test="archive-scene-pick"]').trigger('focus');
    expect(map.props('highlightedId')).toBe('AUR1_001');
    await rows[0]!.find('[data-test="archive-scene-pick"]').trigger('blur');

    // An outline hovered highlights its row; clicked, it picks the row.
    layers.get('AUR1_001')!.fire('mouseover');
    await flushPromises();
    expect(rows[0]!.classes()).toContain('scene--hovered');
    layers.get('AUR1_001')!.fire('click');
    await flushPromises();
    expect(rows[0]!.find('[data-test="archive-scene-pick"]').attributes('aria-pressed')).toBe(
      'true',
    );
    expect(map.props('selectedId')).toBe('AUR1_001');
    // Outlines only over the pictures: a tinted fill would colour the scene being looked at.
    for (const id of ['AUR1_001', 'AUR1_002'])
      expect((layers.get(id)!.getLayers()[0] as L.Path).options.fillOpacity, id).toBe(0);
  });

  it('puts a kept scene in the basket (an archive entry), shown there, ordered from it', async () => {
    bridge.archive.searches = [searchA1()];
    const ring = [11, 44, 12, 44, 12, 45, 11, 45];
    bridge.archive.scenes.set('a1', [sceneRow('AUR1_001', ring), sceneRow('AUR1_002', null)]);
    const w = await mountScreen();
    const toBasket = () => w.findAll('[data-test="archive-scene-basket"]')[0]!;
    expect(toBasket().attributes('aria-pressed')).toBe('false');
    await toBasket().trigger('click');
    await flushPromises();
    expect(toBasket().attributes('aria-pressed')).toBe('true');
    expect(toBasket().text()).toContain('In basket');

    const basket = useBasketStore();
    expect(basket.entries).toEqual([
      expect.objectContaining({
        id: 'AUR1_001',
        sceneId: 'AUR1_001',
        platform: 'sat-aurora-1',
        datetime: '2024-05-10T10:30:00.000Z',
        archive: { footprint: ring },
      }),
    ]);
    const panel = mount(BasketPanel, { attachTo: document.body });
    await flushPromises();
    expect(panel.find('[data-test="basket-archive"]').text()).toBe('archive scene · sat-aurora-1');
    expect(panel.find('[data-test="basket-not-mirrored"]').exists()).toBe(false);
    expect(panel.find('[data-test="basket-not-shown"]').exists()).toBe(false);
    panel.unmount();

    // Order…: an archive item of the scene, its kept outline the area.
    const composer = useComposerStore();
    const key = composer.items[0]!.key;
    composer.setKind(key, 'archive');
    await composer.useCatalogRecords(key, useCatalogStore().selected);
    expect(composer.items[0]!.itemIds).toBe('AUR1_001');
    expect(composer.items[0]!.geometry?.features.map((f) => f.geometry)).toEqual([
      {
        type: 'Polygon',
        coordinates: [
          [
            [11, 44],
            [12, 44],
            [12, 45],
            [11, 45],
            [11, 44],
          ],
        ],
      },
    ]);

    // And out again.
    await toBasket().trigger('click');
    await flushPromises();
    expect(basket.entries).toEqual([]);
    expect(toBasket().attributes('aria-pressed')).toBe('false');
  });

  it('edits a saved search: opened in the form, saved again under its id, nothing it had lost', async () => {
    const area = {
      type: 'Polygon' as const,
      coordinates: [
        [
          [5, 40],
          [6, 40],
          [6, 41],
          [5, 41],
          [5, 40],
        ],
      ],
    };
    /** The saved search's criteria with the most cloud cover `cloud` (its other filter kept). */
    const criteria = (cloud: number) => ({
      satellite: { collection_id: 'col-aurora-l2a', satellite_id: 'sat-aurora-1' },
      start_date: '2024-04-01T00:00:00Z',
      end_date: '2024-05-31T23:59:59Z',
      filters: [
        { id: 'view:off_nadir', max: 10 },
        { id: 'eo:cloud_cover', min: 0, max: cloud },
      ],
      geometry: area,
    });
    bridge.archive.searches = [{ ...searchA1(), search: criteria(20), maxScenes: 50 }];
    const w = await mountScreen();
    const value = (name: string) =>
      (w.find(`[data-test="archive-form"] [name="${name}"]`).element as HTMLInputElement).value;
    await w.find('[data-test="archive-edit"]').trigger('click');
    await flushPromises();
    expect(w.find('[data-test="archive-editing"]').text()).toContain('Aurora over the Po');
    expect(Object.fromEntries(ARCHIVE_FIELDS.map((n) => [n, value(n)]))).toEqual({
      name: 'Aurora over the Po',
      satellite_id: 'sat-aurora-1',
      collection_id: 'col-aurora-l2a',
      start: '2024-04-01',
      end: '2024-05-31',
      cloudMax: '20',
      area: 'saved',
      maxScenes: '50',
    });
    expect(w.find('[data-test="save-archive-search"]').text()).toBe('Save changes');

    await fill(w, { name: 'Po, clearer', cloudMax: '10' });
    await submit(w);
    await flushPromises();
    const saved = bridge.calls.filter((c) => c.method === 'archive.save');
    expect(saved).toHaveLength(1);
    expect(saved[0]!.input).toEqual({
      id: 'a1',
      name: 'Po, clearer',
      search: criteria(10),
      maxScenes: 50,
    });
    // The same search, renamed; the form is empty again for a new one.
    const rows = w.findAll('[data-test="archive-search"]');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.text()).toContain('Po, clearer');
    expect(w.text()).toContain('Saved the changes to “Po, clearer”');
    expect(w.find('[data-test="archive-editing"]').exists()).toBe(false);
    expect(value('name')).toBe('');
    expect(value('area')).toBe('view');
    expect(w.find('[data-test="save-archive-search"]').text()).toBe('Save search');
  });

  it('stops editing: the form empties, a new search is saved without an id', async () => {
    // Not `a1`: the memory bridge names the new one so.
    bridge.archive.searches = [{ ...searchA1(), id: 'kept-1' }];
    const w = await mountScreen();
    await w.find('[data-test="archive-edit"]').trigger('click');
    await flushPromises();
    expect((w.find('[name="name"]').element as HTMLInputElement).value).toBe('Aurora over the Po');
    await w.find('[data-test="archive-editing"] button').trigger('click');
    await flushPromises();
    expect((w.find('[name="name"]').element as HTMLInputElement).value).toBe('');
    await fill(w, { name: 'New', satellite_id: 'sat-aurora-1', area: 'anywhere' });
    await submit(w);
    await flushPromises();
    const input = bridge.calls.find((c) => c.method === 'archive.save')!.input;
    expect(input).not.toHaveProperty('id');
    expect(w.findAll('[data-test="archive-search"]')).toHaveLength(2);
  });

  it('re-reads the searches and scenes when a sync ends', async () => {
    const w = await mountScreen();
    expect(w.findAll('[data-test="archive-search"]')).toHaveLength(0);
    bridge.archive.searches = [
      {
        id: 'a2',
        name: 'Later',
        search: { satellite: { collection_id: 'c', satellite_id: 's' } },
        maxScenes: 10,
        createdAt: '2024-05-17T09:00:00.000Z',
        updatedAt: '2024-05-17T09:00:00.000Z',
        pass: { state: 'failed', scenes: 0, total: null, lastCompleteAt: null, error: 'HTTP 500' },
      },
    ];
    bridge.emit('sync.finished', bridge.syncStatus);
    await flushPromises();
    expect(w.find('[data-test="archive-search"]').text()).toContain(
      'the last sync failed: HTTP 500',
    );
  });
});

function searchA1(): SavedArchiveSearchView {
  return {
    id: 'a1',
    name: 'Aurora over the Po',
    search: { satellite: { collection_id: 'col-aurora-l2a', satellite_id: 'sat-aurora-1' } },
    maxScenes: 200,
    createdAt: '2024-05-17T09:00:00.000Z',
    updatedAt: '2024-05-17T09:00:00.000Z',
    pass: null,
  };
}

function sceneRow(id: string, footprint: number[] | null): ArchiveSceneRow {
  return {
    id,
    rank: 0,
    satelliteId: 'sat-aurora-1',
    collectionId: 'col-aurora-l2a',
    datetime: '2024-05-10T10:30:00.000Z',
    cloudCover: 12.5,
    bbox: null,
    footprint,
    thumbnail: true,
  };
}

describe('the archive form as data', () => {
  const filled = () => ({
    ...emptyArchiveForm(),
    name: 'n',
    satellite_id: 's',
    collection_id: 'c',
  });
  const areas = { viewBox: VIEW, aois: [] };

  it('places the schema issues on its fields, in its words', () => {
    const late = checkArchiveForm({ ...filled(), start: '2024-05-02', end: '2024-05-01' }, areas);
    expect(late.errors).toEqual({ end: 'The end is before the start' });
    expect(checkArchiveForm({ ...filled(), maxScenes: '5000' }, areas).errors).toEqual({
      maxScenes: 'A whole number from 1 to 1000',
    });
    expect(checkArchiveForm({ ...filled(), cloudMax: '120' }, areas).errors).toEqual({
      cloudMax: 'A number from 0 to 100',
    });
  });

  it('opens a saved search: a mirrored AOI named as its area when it is one, else its own', () => {
    const geometry = { type: 'Point' as const, coordinates: [11.5, 44.5] };
    const saved = { ...searchA1(), search: { ...searchA1().search, geometry } };
    const aoi = archiveFormOf(saved, [{ aoi_id: 'aoi-1', geometry }]);
    expect(aoi.form.area).toBe('aoi:aoi-1');
    expect(aoi.form.cloudMax).toBe('');
    const own = archiveFormOf(saved, []);
    expect(own.form.area).toBe('saved');
    expect(checkArchiveForm(own.form, areas, own.kept).payload).toEqual({
      id: 'a1',
      name: 'Aurora over the Po',
      search: { satellite: saved.search.satellite, geometry },
      maxScenes: 200,
    });
    expect(archiveFormOf(searchA1(), []).form.area).toBe('anywhere');
  });

  it('takes an AOI geometry as the area, refuses the view before the map showed one', () => {
    const geometry = { type: 'Point', coordinates: [11.5, 44.5] };
    const aoi = checkArchiveForm(
      { ...filled(), area: 'aoi:aoi-1' },
      { viewBox: null, aois: [{ aoi_id: 'aoi-1', geometry }] },
    );
    expect(aoi.payload?.search.geometry).toEqual(geometry);
    expect(checkArchiveForm(filled(), { viewBox: null, aois: [] }).errors.area).toMatch(
      /open the Catalog first/,
    );
    expect(
      checkArchiveForm({ ...filled(), area: 'anywhere' }, areas).payload?.search,
    ).not.toHaveProperty('geometry');
  });
});
