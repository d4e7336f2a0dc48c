import { flushPromises, mount } from '@vue/test-utils';
import L from 'leaflet';
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { createMemoryBridge } from '../../__tests__/memory-bridge';
import { provideBridge } from '../../stores/bridge-provider';
import { areaOfCorners, describeArea } from '../drawn-area';
import GeometryMap from '../GeometryMap.vue';

beforeEach(() => {
  setActivePinia(createPinia());
  provideBridge(createMemoryBridge({ records: 1 }));
});

describe('describeArea', () => {
  it('says km² and ha, and warns on unusual sizes', () => {
    expect(describeArea(1_250_000)).toEqual({ text: 'Area: 1.25 km² (125 ha)', warning: null });
    expect(describeArea(109_432e6).warning).toMatch(/Very large/);
    expect(describeArea(202_015e6).warning).toMatch(/Very large/);
    expect(describeArea(20).warning).toMatch(/Very small/);
  });

  it('measures corners drawn so far (geodesic: 1° x 1° at the equator is about 12,364 km²)', () => {
    expect(
      areaOfCorners([
        [0, 0],
        [1, 0],
      ]),
    ).toBe(0);
    const km2 =
      areaOfCorners([
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 1],
      ]) / 1e6;
    expect(km2).toBeGreaterThan(12_300);
    expect(km2).toBeLessThan(12_400);
  });
});

describe('the area on the map while drawing', () => {
  it('shows the area live as corners are clicked (geoman) and of the finished polygon', async () => {
    const w = mount(GeometryMap, {
      props: { shapes: [], label: 'Draw map', drawable: true },
      attachTo: document.body,
    });
    await flushPromises();
    type Vm = { startDraw: () => Promise<void>; internals: () => { map: L.Map } };
    const vm = w.vm as unknown as Vm;
    await vm.startDraw();
    await flushPromises();
    const map = vm.internals().map;
    expect(w.find('[data-test="drawn-area"]').exists()).toBe(false);
    // Three corners of a large triangle in Canada, clicked with geoman drawing.
    for (const [lat, lng] of [
      [50, -110],
      [50, -100],
      [58, -105],
    ] as const) {
      map.fire('click', { latlng: L.latLng(lat, lng) });
      await flushPromises();
    }
    const live = w.find('[data-test="drawn-area"]');
    expect(live.exists()).toBe(true);
    expect(live.text()).toMatch(/km² \([\d,.\s]+ ha\)/);
    expect(live.text()).toMatch(/Very large/);

    // The finished polygon (a field) replaces the live figure.
    const field = L.polygon([
      [44.0, -123.0],
      [44.0, -122.99],
      [44.01, -122.99],
      [44.01, -123.0],
    ]);
    map.fire('pm:create', { layer: field, shape: 'Polygon' });
    await flushPromises();
    const done = w.find('[data-test="drawn-area"]').text();
    expect(done).toMatch(/^Area: 0\.89 km² \(88\.9 ha\)$/);
    w.unmount();
  });
});
