import type { Geometry } from '@eo/domain';
import { flushPromises, mount } from '@vue/test-utils';
import L from 'leaflet';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryBridge } from '../../__tests__/memory-bridge';
import { provideBridge } from '../../stores/bridge-provider';
import GeometryMap, { type MapImageOverlay, type MapShape } from '../GeometryMap.vue';
import { giveElementsSize } from './layout';

let undoSize: () => void;

beforeEach(() => {
  setActivePinia(createPinia());
  provideBridge(createMemoryBridge({ records: 1 }));
  // Fitting waits for a laid-out map (world-view.ts): give the maps a size.
  undoSize = giveElementsSize(800, 600);
});

afterEach(() => undoSize());

const box = (x: number, y: number): Geometry => ({
  type: 'Polygon',
  coordinates: [
    [
      [x, y],
      [x + 0.1, y],
      [x + 0.1, y + 0.1],
      [x, y + 0.1],
      [x, y],
    ],
  ],
});

type Internals = { internals: () => { map: L.Map; layers: Map<string, L.GeoJSON> } };

describe('GeometryMap', () => {
  it('draws shapes by id, reports hover and clicks, restyles and zooms to the selection', async () => {
    const shapes: MapShape[] = [
      { id: 'a', geometries: [box(10, 10)], label: 'A' },
      { id: 'b', geometries: [box(-60, -30), box(-59, -30)], queued: true },
      { id: 'empty', geometries: [] },
    ];
    const w = mount(GeometryMap, { props: { shapes, label: 'Test map' }, attachTo: document.body });
    await flushPromises();
    const { map, layers } = (w.vm as unknown as Internals).internals();
    expect([...layers.keys()]).toEqual(['a', 'b']);
    // The view was fitted to all shapes (happy-dom has no layout: check where it is centred;
    // the start view, 20° N 0° E, lies outside these shapes' bounds).
    const all = layers.get('a')!.getBounds().extend(layers.get('b')!.getBounds());
    expect(all.contains(map.getCenter())).toBe(true);

    layers.get('a')!.fire('mouseover');
    layers.get('a')!.fire('mouseout');
    layers.get('b')!.fire('click');
    expect(w.emitted('hover')).toEqual([['a'], [null]]);
    expect(w.emitted('select')).toEqual([['b']]);

    const pathOf = (id: string) => layers.get(id)!.getLayers()[0] as L.Path;
    expect(pathOf('b').options.dashArray).toBe('6 4');
    await w.setProps({ highlightedId: 'a' });
    expect(pathOf('a').options.color).toBe('#ea580c');
    await w.setProps({ highlightedId: null, selectedId: 'a' });
    expect(pathOf('a').options.color).toBe('#7c2d12');
    // Picking a shape brings it into view.
    const a = layers.get('a')!.getBounds().getCenter();
    expect(map.getCenter().lat).toBeCloseTo(a.lat, 3);
    expect(map.getCenter().lng).toBeCloseTo(a.lng, 3);
    w.unmount();
  });

  it('draws outlines only over an overlay (an index map is not tinted by the selection)', async () => {
    const shapes: MapShape[] = [{ id: 'a', geometries: [box(10, 10)] }];
    const w = mount(GeometryMap, {
      props: { shapes, label: 'Test map', selectedId: 'a' },
      attachTo: document.body,
    });
    await flushPromises();
    const { layers } = (w.vm as unknown as Internals).internals();
    const path = () => layers.get('a')!.getLayers()[0] as L.Path;
    expect(path().options.fillOpacity).toBe(0.25);
    const overlay: MapImageOverlay = {
      url: 'data:,',
      bounds: [10, 10, 10.1, 10.1],
      opacity: 0.8,
      label: 'NDVI',
    };
    await w.setProps({ overlay });
    expect(path().options.fillOpacity).toBe(0);
    expect(path().options.color).toBe('#7c2d12');
    await w.setProps({ overlay: null });
    expect(path().options.fillOpacity).toBe(0.25);
    w.unmount();
  });

  it('rings each part of a far-apart item (Oregon and Sweden), never their centre in the ocean', async () => {
    const oregon = box(-123.1, 44.0);
    const sweden = box(17.9, 59.3);
    const multi: Geometry = {
      type: 'MultiPolygon',
      coordinates: [
        (oregon as { coordinates: number[][][] }).coordinates,
        (sweden as { coordinates: number[][][] }).coordinates,
      ],
    };
    for (const geometries of [[oregon, sweden], [multi]]) {
      const w = mount(GeometryMap, {
        props: { shapes: [{ id: 'item', geometries }], label: 'Composer map' },
        attachTo: document.body,
      });
      await flushPromises();
      const { layers } = (w.vm as unknown as Internals).internals();
      const rings = layers
        .get('item')!
        .getLayers()
        .filter((l): l is L.CircleMarker => l instanceof L.CircleMarker)
        .map((m) => m.getLatLng());
      expect(rings).toHaveLength(2);
      const inOregon = rings.filter(
        (p) => p.lng > -124 && p.lng < -122 && p.lat > 43 && p.lat < 45,
      );
      const inSweden = rings.filter((p) => p.lng > 17 && p.lng < 19 && p.lat > 59 && p.lat < 60);
      expect([inOregon.length, inSweden.length]).toEqual([1, 1]);
      w.unmount();
    }
  });

  it("brings a shape's first area into view (a composer item given an area), not a redraw", async () => {
    const w = mount(GeometryMap, {
      props: { shapes: [{ id: 'item-1', geometries: [] }], label: 'Composer map' },
      attachTo: document.body,
    });
    await flushPromises();
    const { map, layers } = (w.vm as unknown as Internals).internals();
    // The same id, now with an area far from the start view (20° N 0° E).
    await w.setProps({ shapes: [{ id: 'item-1', geometries: [box(100, -40)] }] });
    const area = layers.get('item-1')!.getBounds();
    expect(area.contains(map.getCenter())).toBe(true);
    // Panning away and drawing the same shapes again leaves the view alone.
    map.setView([20, 0], 3, { animate: false });
    await w.setProps({ shapes: [{ id: 'item-1', geometries: [box(100, -40)], label: 'again' }] });
    expect(map.getCenter().lat).toBeCloseTo(20, 3);
    expect(map.getCenter().lng).toBeCloseTo(0, 3);
    w.unmount();
  });

  it('asks for corners only once the drawing tool is loaded and drawing', async () => {
    const w = mount(GeometryMap, {
      props: { shapes: [], label: 'Draw map', drawable: true },
      attachTo: document.body,
    });
    await flushPromises();
    type Drawing = Internals & { startDraw: () => Promise<void> };
    const vm = w.vm as unknown as Drawing;
    const started = vm.startDraw();
    await w.vm.$nextTick();
    // Geoman is still loading: a click now would be lost, so the hint does not ask for one.
    expect(w.find('[data-test="draw-hint"]').text()).toBe('Loading the drawing tool…');
    await started;
    await flushPromises();
    expect(w.find('[data-test="draw-hint"]').text()).toContain('Click on the map to add corners');
    expect(vm.internals().map.pm.globalDrawModeEnabled()).toBe(true);
    w.unmount();
  });

  it('emits a drawn polygon (closed, lon/lat) and offers drawing only when asked', async () => {
    const w = mount(GeometryMap, {
      props: { shapes: [], label: 'Draw map', drawable: false },
      attachTo: document.body,
    });
    await flushPromises();
    expect(w.find('[data-test="draw-area"]').exists()).toBe(false);
    await w.setProps({ drawable: true });
    expect(w.find('[data-test="draw-area"]').exists()).toBe(true);
    const { map } = (w.vm as unknown as Internals).internals();
    const layer = L.polygon([
      [1, 2],
      [1, 3],
      [2, 3],
    ]).addTo(map);
    map.fire('pm:create', { layer, shape: 'Polygon' });
    expect(w.emitted('drawn')).toEqual([
      [
        {
          type: 'Polygon',
          coordinates: [
            [
              [2, 1],
              [3, 1],
              [3, 2],
              [2, 1],
            ],
          ],
        },
      ],
    ]);
    // The drawn shape stays to be edited while drawing is offered, and goes when it is not.
    expect(map.hasLayer(layer)).toBe(true);
    await w.setProps({ drawable: false });
    expect(map.hasLayer(layer)).toBe(false);
    w.unmount();
  });

  it('lets a drawn shape go when the parent drops every area (the composer emptied after queueing)', async () => {
    const shape = (id: string) => ({
      id,
      geometries: [
        {
          type: 'Polygon' as const,
          coordinates: [
            [
              [2, 1],
              [3, 1],
              [3, 2],
              [2, 1],
            ],
          ],
        },
      ],
    });
    const w = mount(GeometryMap, {
      props: { shapes: [], label: 'Draw map', drawable: true },
      attachTo: document.body,
    });
    await flushPromises();
    const { map } = (w.vm as unknown as Internals).internals();
    const layer = L.polygon([
      [1, 2],
      [1, 3],
      [2, 3],
    ]).addTo(map);
    map.fire('pm:create', { layer, shape: 'Polygon' });
    // The parent takes the drawn area as the item's: the drawn shape stays to be edited.
    await w.setProps({ shapes: [shape('item-1')] });
    expect(map.hasLayer(layer)).toBe(true);
    // Queued: the composer starts an empty item (a shape with no area); drawing is still offered.
    await w.setProps({ shapes: [{ id: 'item-1', geometries: [] }] });
    expect(map.hasLayer(layer)).toBe(false);
    w.unmount();
  });
});
