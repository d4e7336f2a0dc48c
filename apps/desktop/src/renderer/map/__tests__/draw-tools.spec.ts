import { geodesicArea, type Polygon } from '@eo/domain';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import L from 'leaflet';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryBridge } from '../../__tests__/memory-bridge';
import { provideBridge } from '../../stores/bridge-provider';
import { circlePolygon, readRadiusKm } from '../draw-shapes';
import { ensureGeoman } from '../geoman';
import GeometryMap from '../GeometryMap.vue';

let w: VueWrapper | null = null;
beforeEach(() => {
  setActivePinia(createPinia());
  provideBridge(createMemoryBridge({ records: 1 }));
});
afterEach(() => {
  w?.unmount();
  w = null;
});

type Vm = { internals: () => { map: L.Map } };

async function drawMap(): Promise<{ map: L.Map; wrapper: VueWrapper }> {
  w = mount(GeometryMap, {
    props: { shapes: [], label: 'Draw map', drawable: true },
    attachTo: document.body,
  });
  await flushPromises();
  return { map: (w.vm as unknown as Vm).internals().map, wrapper: w };
}

const km2 = (p: Polygon) => geodesicArea(p) / 1e6;
const drawn = (wrapper: VueWrapper) => (wrapper.emitted('drawn') ?? []).map((e) => e[0] as Polygon);

describe('circlePolygon', () => {
  it('is a closed 64-gon whose area is that of the circle (πr², on the sphere)', () => {
    const p = circlePolygon({ lat: 59.3, lon: 18.1 }, 1000);
    const ring = p.coordinates[0]!;
    expect(ring).toHaveLength(65);
    expect(ring[64]).toEqual(ring[0]);
    expect(km2(p)).toBeGreaterThan(Math.PI * 0.997);
    expect(km2(p)).toBeLessThan(Math.PI);
    // North of the centre by 1 km is about 0.009° of latitude.
    const north = Math.max(...ring.map((c) => c[1]!));
    expect(north - 59.3).toBeCloseTo(1 / 111.2, 3);
  });

  it('wraps longitudes near the antimeridian into -180..180', () => {
    const ring = circlePolygon({ lat: 0, lon: 179.99 }, 5000).coordinates[0]!;
    expect(ring.every(([lon]) => lon! >= -180 && lon! <= 180)).toBe(true);
  });

  it('reads a typed radius, refusing what is not a distance in range', () => {
    expect(readRadiusKm('2.5')).toEqual({ ok: true, km: 2.5 });
    expect(readRadiusKm('')).toMatchObject({ ok: false });
    expect(readRadiusKm('0')).toMatchObject({ ok: false });
    expect(readRadiusKm('900')).toMatchObject({ ok: false, error: /0.01 to 500 km/ });
  });
});

describe('drawing tools on a map', () => {
  it('draws a rectangle with its area shown live while it is dragged out', async () => {
    const { map, wrapper } = await drawMap();
    // Geoman loads on first use: loaded here, so the click starts drawing at once.
    await ensureGeoman(map);
    await wrapper.find('[data-test="draw-rectangle"]').trigger('click');
    await flushPromises();
    expect(wrapper.find('[data-test="draw-hint"]').text()).toContain('then the opposite corner');
    map.fire('click', { latlng: L.latLng(44, -123) });
    map.fire('mousemove', { latlng: L.latLng(44.1, -122.9) });
    await flushPromises();
    expect(wrapper.find('[data-test="drawn-area"]').text()).toMatch(/^Area: 88\.\d+ km²/);
    map.fire('click', { latlng: L.latLng(44.1, -122.9) });
    await flushPromises();
    const [rect] = drawn(wrapper);
    expect(rect!.coordinates[0]).toHaveLength(5);
    expect(km2(rect!)).toBeGreaterThan(88);
    expect(km2(rect!)).toBeLessThan(90);
  });

  it('draws a rectangle dragged out (press, drag, release), the map held still', async () => {
    const { map, wrapper } = await drawMap();
    await ensureGeoman(map);
    await wrapper.find('[data-test="draw-rectangle"]').trigger('click');
    await flushPromises();
    map.setView([44.05, -122.95], 11, { animate: false });
    const container = map.getContainer();
    const pointAt = (lat: number, lon: number) => {
      const p = map.latLngToContainerPoint([lat, lon]);
      const r = container.getBoundingClientRect();
      return { clientX: r.left + p.x, clientY: r.top + p.y, bubbles: true, button: 0 };
    };
    const center = map.getCenter();
    container.dispatchEvent(new PointerEvent('pointerdown', pointAt(44, -123)));
    expect(map.dragging.enabled()).toBe(false);
    document.dispatchEvent(new PointerEvent('pointermove', pointAt(44.1, -122.9)));
    await flushPromises();
    expect(wrapper.find('[data-test="drawn-area"]').text()).toMatch(/^Area: 8\d\.\d+ km²/);
    document.dispatchEvent(new PointerEvent('pointerup', pointAt(44.1, -122.9)));
    await flushPromises();
    expect(map.dragging.enabled()).toBe(true);
    expect(map.getCenter()).toEqual(center);
    const [rect] = drawn(wrapper);
    expect(rect!.coordinates[0]).toHaveLength(5);
    expect(km2(rect!)).toBeGreaterThan(85);
    expect(km2(rect!)).toBeLessThan(92);
    expect(wrapper.find('[data-test="draw-edit-hint"]').exists()).toBe(true);
  });

  it('buffers a clicked point by the radius typed, and follows a new radius', async () => {
    const { map, wrapper } = await drawMap();
    await wrapper.find('[data-test="draw-radius"]').setValue('2');
    await wrapper.find('[data-test="draw-circle"]').trigger('click');
    await flushPromises();
    // The area is known before the centre is placed.
    expect(wrapper.find('[data-test="drawn-area"]').text()).toMatch(/^Area: 12\.5\d km²/);
    expect(wrapper.find('[data-test="draw-hint"]').text()).toContain('centre of the circle');
    map.fire('click', { latlng: L.latLng(59.33, 18.07) });
    await flushPromises();
    const [circle] = drawn(wrapper);
    expect(circle!.coordinates[0]).toHaveLength(65);
    expect(km2(circle!)).toBeCloseTo(4 * Math.PI, 0);
    expect(wrapper.find('[data-test="draw-edit-hint"]').text()).toContain('centre or the edge');

    await wrapper.find('[data-test="draw-radius"]').setValue('1');
    await flushPromises();
    expect(km2(drawn(wrapper)[1]!)).toBeCloseTo(Math.PI, 0);
    expect(wrapper.find('[data-test="drawn-area"]').text()).toMatch(/^Area: 3\.1\d km²/);

    await wrapper.find('[data-test="draw-radius"]').setValue('9000');
    expect(wrapper.find('[role="alert"]').text()).toMatch(/0.01 to 500 km/);
    expect(drawn(wrapper)).toHaveLength(2);
  });

  it('keeps the drawn polygon editable: a dragged corner is a new area', async () => {
    const { map, wrapper } = await drawMap();
    const layer = L.polygon([
      [44.0, -123.0],
      [44.0, -122.99],
      [44.01, -122.99],
      [44.01, -123.0],
    ]);
    map.fire('pm:create', { layer, shape: 'Polygon' });
    await flushPromises();
    const pm = (layer as unknown as { pm: { enabled: () => boolean } }).pm;
    expect(pm.enabled()).toBe(true);
    // A corner dragged (geoman moves the latlng, then says the edit is done).
    const ring = layer.getLatLngs()[0] as L.LatLng[];
    ring[2] = L.latLng(44.02, -122.98);
    layer.setLatLngs([ring]);
    layer.fire('pm:edit', { layer });
    await flushPromises();
    const [first, edited] = drawn(wrapper);
    expect(km2(edited!)).toBeGreaterThan(km2(first!) * 1.5);
    expect(wrapper.find('[data-test="drawn-area"]').text()).toBe(
      `Area: ${km2(edited!).toLocaleString(undefined, { maximumFractionDigits: 2 })} km² (${(
        km2(edited!) * 100
      ).toLocaleString(undefined, { maximumFractionDigits: 1 })} ha)`,
    );
  });

  it('says what the service is likely to do with an unusual size', async () => {
    const { map, wrapper } = await drawMap();
    const tiny = L.polygon([
      [44.0, -123.0],
      [44.0, -122.9999],
      [44.0001, -122.9999],
    ]);
    map.fire('pm:create', { layer: tiny, shape: 'Polygon' });
    await flushPromises();
    expect(wrapper.find('[data-test="drawn-area"]').text()).toMatch(
      /Very small .*returns every scene touching it/,
    );
  });
});

describe('an area typed instead of drawn', () => {
  async function typeArea(wrapper: VueWrapper, text: string): Promise<void> {
    if (!wrapper.find('[data-test="draw-type-form"]').exists())
      await wrapper.find('[data-test="draw-type"]').trigger('click');
    await flushPromises();
    await wrapper.find('[data-test="draw-type-text"]').setValue(text);
    await wrapper.find('[data-test="draw-type-form"]').trigger('submit');
    // The backend's reader answers through the bridge (a dynamic import the first time, which
    // takes seconds on a busy machine). "Use" is disabled while it reads; the answer is in when
    // the form closed (drawn) or "Use" is enabled again (refused). Bounded, saying what never
    // happened.
    await vi.waitFor(
      () => {
        const use = wrapper.find('[data-test="draw-type-use"]');
        if (use.exists() && use.attributes('disabled') !== undefined)
          throw new Error(`"${text}" was neither drawn nor refused`);
      },
      { timeout: 15_000, interval: 20 },
    );
    await flushPromises();
  }

  it('takes a box as west, south, east, north: kept like a drawn polygon, the map moved to it', async () => {
    const { map, wrapper } = await drawMap();
    await typeArea(wrapper, '4.55, 43.49, 4.65, 43.55');
    const [box] = drawn(wrapper);
    expect(box!.coordinates[0]).toEqual([
      [4.55, 43.49],
      [4.65, 43.49],
      [4.65, 43.55],
      [4.55, 43.55],
      [4.55, 43.49],
    ]);
    expect(map.getCenter().lat).toBeCloseTo(43.52, 1);
    expect(map.getCenter().lng).toBeCloseTo(4.6, 1);
    expect(wrapper.find('[data-test="drawn-area"]').text()).toMatch(/^Area: 5\d\.\d+ km²/);
    // The form closes and gives the focus back to its button.
    expect(wrapper.find('[data-test="draw-type-form"]').exists()).toBe(false);
    expect(document.activeElement?.getAttribute('data-test')).toBe('draw-type');
  });

  it('takes corners one per line (latitude first, DMS too) and WKT', async () => {
    const { wrapper } = await drawMap();
    await typeArea(wrapper, `43°29'N 4°33'E\n43.49, 4.65\n43.55, 4.65\n43.55, 4.55`);
    const [corners] = drawn(wrapper);
    const [lon, lat] = corners!.coordinates[0]![0]!;
    expect(lon).toBe(4.55);
    expect(lat).toBeCloseTo(43 + 29 / 60, 9);
    expect(corners!.coordinates[0]).toHaveLength(5);
    await typeArea(wrapper, 'POLYGON ((4.55 43.49, 4.65 43.49, 4.65 43.55, 4.55 43.49))');
    expect(drawn(wrapper)[1]!.coordinates[0]).toHaveLength(4);
  });

  it('says what is wrong and keeps the text, and Esc closes the form', async () => {
    const { wrapper } = await drawMap();
    await typeArea(wrapper, '4.65, 43.55, 4.55, 43.49');
    expect(wrapper.find('[data-test="draw-type-error"]').text()).toMatch(
      /south must be less than north/,
    );
    expect(
      (wrapper.find('[data-test="draw-type-text"]').element as HTMLTextAreaElement).value,
    ).toBe('4.65, 43.55, 4.55, 43.49');
    await typeArea(wrapper, '43.49, 4.55\nsomewhere\n43.55, 4.65');
    expect(wrapper.find('[data-test="draw-type-error"]').text()).toMatch(/^Line 2:/);
    expect(drawn(wrapper)).toHaveLength(0);
    await wrapper.find('[data-test="draw-type-form"]').trigger('keydown', { key: 'Escape' });
    expect(wrapper.find('[data-test="draw-type-form"]').exists()).toBe(false);
  });
});
