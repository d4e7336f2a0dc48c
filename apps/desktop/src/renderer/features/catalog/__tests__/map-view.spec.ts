import { flushPromises, mount } from '@vue/test-utils';
import L from 'leaflet';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { FootprintLayer } from '../../../map/footprint-layer';
import { giveElementsSize } from '../../../map/__tests__/layout';
import { MAX_MERCATOR_LAT } from '../../../map/world-view';
import { provideBridge } from '../../../stores/bridge-provider';
import { useCatalogStore } from '../../../stores/catalog-store';
import MapView from '../MapView.vue';
import { useRastersStore } from '../../../capabilities/rasters/rasters-store';

let bridge: MemoryBridge;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 30 });
  provideBridge(bridge);
});

/** A point inside a record's footprint: the mean of its ring's corners. */
function insideOf(ring: number[]): L.LatLng {
  let lon = 0;
  let lat = 0;
  const n = ring.length / 2 - 1; // the closing point repeats the first
  for (let k = 0; k < n; k++) {
    lon += ring[k * 2]!;
    lat += ring[k * 2 + 1]!;
  }
  return L.latLng(lat / n, lon / n);
}

function mouse(extra: Partial<MouseEvent> = {}): MouseEvent {
  return { ctrlKey: false, metaKey: false, shiftKey: false, ...extra } as MouseEvent;
}

describe('FootprintLayer on a real Leaflet map', () => {
  it('reports hover and clicks with the ids under the pointer', () => {
    const el = document.createElement('div');
    document.body.append(el);
    const map = L.map(el, { center: [0, 0], zoom: 3 });
    const hovers: Array<string | null> = [];
    const clicks: Array<{ ids: readonly string[]; additive: boolean }> = [];
    const layer = new FootprintLayer({
      onHover: (id) => hovers.push(id),
      onClick: (c) => clicks.push(c),
    }).addTo(map);
    const big = [10, 10, 20, 10, 20, 20, 10, 20, 10, 10];
    const small = [14, 14, 16, 14, 16, 16, 14, 16, 14, 14];
    layer.setFootprints(['big', 'small'], [big, small]);
    expect(layer.count).toBe(2);

    map.fire('mousemove', { latlng: L.latLng(15, 15), originalEvent: mouse() });
    map.fire('mousemove', { latlng: L.latLng(11, 11), originalEvent: mouse() });
    map.fire('mousemove', { latlng: L.latLng(11, 11.5), originalEvent: mouse() }); // same: no event
    map.fire('mousemove', { latlng: L.latLng(-40, 100), originalEvent: mouse() });
    expect(hovers).toEqual(['small', 'big', null]);

    map.fire('click', { latlng: L.latLng(15, 15), originalEvent: mouse({ ctrlKey: true }) });
    expect(clicks).toEqual([{ ids: ['small', 'big'], additive: true }]);
    // A world copy one turn east hits the same footprint.
    expect(layer.idsAt(L.latLng(15, 15 + 360))).toEqual(['small', 'big']);

    layer.setSelection(['big', 'unknown']);
    expect(layer.selectedCount).toBe(1);
    // New data keeps the selection and the hover of ids that are still there.
    layer.setHovered('small');
    layer.setFootprints(['small'], [small]);
    expect(layer.hoveredId).toBe('small');
    expect(layer.selectedCount).toBe(0);
    expect(layer.boundsOf()?.getCenter().lat).toBeCloseTo(15, 0);
    // Hit tests read the new footprints (the grid is built anew on the first one after them).
    expect(layer.idsAt(L.latLng(15, 15))).toEqual(['small']);
    expect(layer.idsAt(L.latLng(11, 11))).toEqual([]);
    layer.setFootprints(['far'], [[100, -41, 102, -41, 102, -39, 100, -39]]);
    expect(layer.idsAt(L.latLng(-40, 101))).toEqual(['far']);
    map.remove();
  });

  it('draws outlines only while imagery lies under it (no tint), filled again after', () => {
    const layer = new FootprintLayer();
    layer.setFootprints(
      ['a', 'b'],
      [
        [10, 10, 20, 10, 20, 20, 10, 20, 10, 10],
        [30, 10, 40, 10, 40, 20, 30, 20, 30, 10],
      ],
    );
    layer.setSelection(['a']);
    /** The context's calls by name (a recording 2D context: happy-dom has no canvas). */
    const paint = () => {
      const calls: string[] = [];
      const ctx = new Proxy({} as Record<string | symbol, unknown>, {
        get: (t, k) => (k in t ? t[k] : (..._: unknown[]) => void calls.push(String(k))),
        set: (t, k, v) => ((t[k] = v), true),
      });
      const view = { scale: 256, originX: 0, originY: 0, width: 800, height: 600 };
      const draw = (layer as unknown as { drawCanvas: (n: number, c: unknown, v: unknown) => void })
        .drawCanvas;
      draw.call(layer, 0, ctx, view);
      return {
        fills: calls.filter((c) => c === 'fill').length,
        strokes: calls.filter((c) => c === 'stroke').length,
      };
    };
    expect(paint().fills).toBeGreaterThan(0);
    layer.setOutlinesOnly(true);
    expect(layer.outlinesOnly).toBe(true);
    expect(paint()).toMatchObject({ fills: 0, strokes: expect.any(Number) });
    expect(paint().strokes).toBeGreaterThan(0);
    layer.setOutlinesOnly(false);
    expect(paint().fills).toBeGreaterThan(0);
  });
});

describe('MapView', () => {
  it('draws footprints as outlines while an offline raster is shown under them', async () => {
    const wrapper = mount(MapView, { attachTo: document.body });
    await flushPromises();
    const { footprints } = wrapper.vm.internals();
    expect(footprints?.outlinesOnly).toBe(false);
    const rasters = useRastersStore();
    rasters.$patch({ openId: 'raster-1', visible: true });
    await flushPromises();
    expect(footprints?.outlinesOnly).toBe(true);
    rasters.$patch({ visible: false });
    await flushPromises();
    expect(footprints?.outlinesOnly).toBe(false);
    wrapper.unmount();
  });

  it('keeps map and store in step both ways: hover, click, selection', async () => {
    const catalog = useCatalogStore();
    await catalog.search();
    const wrapper = mount(MapView, { attachTo: document.body });
    await flushPromises();
    const { map, footprints } = wrapper.vm.internals();
    expect(map).not.toBeNull();
    expect(footprints?.count).toBe(30);

    // Map -> store.
    const id = catalog.footprints.ids[5]!;
    const fp = catalog.footprints;
    const at = insideOf([...fp.coords.subarray(fp.offsets[5]! * 2, fp.offsets[6]! * 2)]);
    const under = footprints!.idsAt(at);
    expect(under).toContain(id);
    map!.fire('mousemove', { latlng: at, originalEvent: mouse() });
    expect(catalog.hoveredId).toBe(under[0]);
    expect(catalog.hoverSource).toBe('map');
    const reveal = catalog.revealSeq;
    map!.fire('click', { latlng: at, originalEvent: mouse() });
    // Opened to look at it, not put in the basket (issue 17, item 5).
    expect(catalog.selected).toEqual([]);
    expect(catalog.activeId).toBe(under[0]);
    expect(catalog.revealSeq).toBe(reveal + 1);

    // A footprint hovered on the map says when it was taken and how cloudy it was.
    const { tooltip } = wrapper.vm.internals();
    await flushPromises();
    const row = catalog.rowAt(catalog.indexOfId(under[0]!)!)!;
    expect(tooltip.isOpen()).toBe(true);
    const tip = tooltip.getElement()!.textContent!;
    expect(tip).toContain(`${Math.round(row.cloudCover!)} %`);
    expect(tip).toContain(String(new Date(row.datetime!).getFullYear()));
    map!.fire('mousemove', { latlng: L.latLng(-80, 170), originalEvent: mouse() });
    await flushPromises();
    expect(tooltip.isOpen()).toBe(false);

    // The row focused in the list (its footprint highlighted from there), then the pointer on
    // that same footprint: the map's hover still reaches the store (list scroll, tooltip).
    catalog.hover(under[0]!, 'list');
    await flushPromises();
    map!.fire('mousemove', { latlng: at, originalEvent: mouse() });
    await flushPromises();
    expect(catalog.hoverSource).toBe('map');
    expect(tooltip.isOpen()).toBe(true);
    map!.fire('mousemove', { latlng: L.latLng(-80, 170), originalEvent: mouse() });
    await flushPromises();

    // Store (list) -> map.
    const other = catalog.footprints.ids[9]!;
    catalog.hover(other, 'list');
    await flushPromises();
    expect(footprints!.hoveredId).toBe(other);
    await catalog.toggle(other);
    await flushPromises();
    expect(footprints!.selectedCount).toBe(1);

    // A new search replaces the drawn footprints.
    catalog.filters.collections = ['none-such'];
    await catalog.search();
    await flushPromises();
    expect(footprints!.count).toBe(0);
    wrapper.unmount();
  });

  it('reports the map view as the search box', async () => {
    const catalog = useCatalogStore();
    const wrapper = mount(MapView, { attachTo: document.body });
    await flushPromises();
    const { map } = wrapper.vm.internals();
    map!.fire('moveend');
    expect(catalog.viewBox).not.toBeNull();
    expect(wrapper.emitted('viewChanged')?.length).toBeGreaterThan(0);
    wrapper.unmount();
  });
});

describe('MapView brings results into view (one world, never the minimum zoom)', () => {
  /** Pixel rows of a 1000x700 view outside the world (the empty band under Antarctica). */
  function band(map: L.Map): number {
    const top = map.latLngToContainerPoint([MAX_MERCATOR_LAT, 0]).y;
    const bottom = map.latLngToContainerPoint([-MAX_MERCATOR_LAT, 0]).y;
    return Math.max(0, top) + Math.max(0, 700 - bottom);
  }

  it('"Zoom to results", a new search and an opened record each bring footprints into view', async () => {
    const undo = giveElementsSize(1000, 700);
    try {
      const catalog = useCatalogStore();
      const wrapper = mount(MapView, { attachTo: document.body });
      await flushPromises();
      const { map, footprints } = wrapper.vm.internals();
      await catalog.search();
      await flushPromises();
      // A new search fits its results: here they lie all over the world.
      const all = footprints!.boundsOf()!;
      expect(map!.getZoom()).toBeGreaterThanOrEqual(2);
      expect(band(map!)).toBe(0);

      // Zoomed in on one place, "Zoom to results" shows them all, one world, no band.
      map!.setView([44, -123], 9, { animate: false });
      const zoomToResults = wrapper.findAll('button').find((b) => b.text() === 'Zoom to results')!;
      await zoomToResults.trigger('click');
      expect(map!.getZoom()).toBeGreaterThanOrEqual(2);
      expect(map!.getZoom()).toBeLessThan(9);
      expect(band(map!)).toBe(0);
      expect(map!.getBounds().getWest()).toBeGreaterThanOrEqual(-180.0001);
      expect(map!.getBounds().contains(all.getCenter())).toBe(true);

      // Opening a record (from anywhere) brings its footprint into view.
      map!.setView([0, 0], 12, { animate: false });
      const id = catalog.footprints.ids[3]!;
      await catalog.open(id);
      await flushPromises();
      expect(map!.getBounds().contains(footprints!.boundsOf([id])!)).toBe(true);

      // A search re-run by a sync does not move the map.
      map!.setView([10, 10], 6, { animate: false });
      await catalog.refresh();
      await flushPromises();
      expect(map!.getZoom()).toBe(6);
      wrapper.unmount();
    } finally {
      undo();
    }
  });
});

describe('MapView says where it is', () => {
  it('has a metric scale bar, the pointer position and "go to coordinates" (decimal or DMS)', async () => {
    const undo = giveElementsSize(1000, 700);
    try {
      const wrapper = mount(MapView, { attachTo: document.body });
      await flushPromises();
      const { map } = wrapper.vm.internals();
      expect(wrapper.find('.leaflet-control-scale-line').exists()).toBe(true);

      map!.fire('mousemove', { latlng: L.latLng(44.0551, -123.0865), originalEvent: mouse() });
      await flushPromises();
      expect(wrapper.find('[data-test="cursor-position"]').text()).toBe('44.05510, -123.08650');

      const input = wrapper.find('[data-test="goto-input"]');
      await input.setValue('59°19\'48"N 18°4\'12"E');
      await wrapper.find('[data-test="goto-form"]').trigger('submit');
      expect(map!.getCenter().lat).toBeCloseTo(59.33, 2);
      expect(map!.getCenter().lng).toBeCloseTo(18.07, 2);
      expect(map!.getZoom()).toBeGreaterThanOrEqual(12);
      expect(wrapper.find('[data-test="goto-error"]').exists()).toBe(false);

      await input.setValue('95, 10');
      await wrapper.find('[data-test="goto-form"]').trigger('submit');
      expect(wrapper.find('[data-test="goto-error"]').text()).toMatch(/latitude must lie/);
      expect(input.attributes('aria-invalid')).toBe('true');
      expect(map!.getCenter().lat).toBeCloseTo(59.33, 2);
      wrapper.unmount();
    } finally {
      undo();
    }
  });
});
