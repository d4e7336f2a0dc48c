import { geodesicArea, type Polygon } from '@eo/domain';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import type L from 'leaflet';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryBridge } from '../../__tests__/memory-bridge';
import { provideBridge } from '../../stores/bridge-provider';
import GeometryMap from '../GeometryMap.vue';
import { deviceSays, restoreGeolocation } from './geolocation-stub';
import { myPosition } from '../my-position';

let w: VueWrapper | null = null;
beforeEach(() => {
  setActivePinia(createPinia());
  provideBridge(createMemoryBridge({ records: 1 }));
});
afterEach(() => {
  w?.unmount();
  w = null;
  restoreGeolocation();
});

async function mapWith(drawable: boolean) {
  w = mount(GeometryMap, {
    props: { shapes: [], label: 'Near me map', drawable },
    attachTo: document.body,
  });
  await flushPromises();
  return (w.vm as unknown as { internals: () => { map: L.Map } }).internals().map;
}

describe('Near me', () => {
  it('shows the device position and makes a circle around it the drawn area', async () => {
    deviceSays({ lat: 59.3293, lon: 18.0686, accuracy: 25 });
    const map = await mapWith(true);
    await w!.find('[data-test="near-me"]').trigger('click');
    await flushPromises();
    expect(w!.find('[data-test="near-me-status"]').text()).toBe(
      'Your position: 59.32930, 18.06860 (±25 m)',
    );
    // The button pressed was the shell's (NearMe.vue); its panel's button has the focus now.
    expect(document.activeElement).toBe(w!.find('[data-test="near-me"]').element);
    expect(map.getCenter().lat).toBeCloseTo(59.3293, 3);
    expect(map.getZoom()).toBeGreaterThanOrEqual(13);
    await w!.find('[data-test="draw-radius"]').setValue('3');
    await w!.find('[data-test="near-me-area"]').trigger('click');
    await flushPromises();
    const [area] = (w!.emitted('drawn') ?? []).map((e) => e[0] as Polygon);
    expect(geodesicArea(area!) / 1e6).toBeCloseTo(9 * Math.PI, 0);
    const lons = area!.coordinates[0]!.map((c) => c[0]!);
    expect((Math.min(...lons) + Math.max(...lons)) / 2).toBeCloseTo(18.0686, 3);
  });

  it('"Type my position" opens the form with its input focused', async () => {
    await mapWith(false);
    await w!.find('[data-test="near-me-type"]').trigger('click');
    await flushPromises();
    expect(w!.find('[data-test="near-me-type"]').exists()).toBe(false);
    expect(document.activeElement).toBe(w!.find('[data-test="near-me-input"]').element);
  });

  it('asks for a typed position (decimal or DMS) when the device cannot say', async () => {
    deviceSays({ code: 1 });
    const map = await mapWith(false);
    expect(w!.find('[data-test="near-me-form"]').exists()).toBe(false);
    await w!.find('[data-test="near-me"]').trigger('click');
    await flushPromises();
    expect(w!.find('[data-test="near-me-error"]').text()).toBe(
      'The position was not allowed: type it instead.',
    );
    await w!.find('[data-test="near-me-input"]').setValue('44°3\'18"N 123°5\'24"W');
    await w!.find('[data-test="near-me-form"]').trigger('submit');
    await flushPromises();
    expect(w!.find('[data-test="near-me-status"]').text()).toBe(
      'Position typed: 44.05500, -123.09000',
    );
    expect(map.getCenter().lng).toBeCloseTo(-123.09, 3);
    // The app's position now (what "around my position" elsewhere uses).
    expect(myPosition.value).toEqual({
      lat: expect.closeTo(44.055, 6),
      lon: expect.closeTo(-123.09, 6),
      accuracyM: null,
      source: 'Position typed',
    });
    // No drawing offered on this map: no area button.
    expect(w!.find('[data-test="near-me-area"]').exists()).toBe(false);

    await w!.find('[data-test="near-me-input"]').setValue('somewhere');
    await w!.find('[data-test="near-me-form"]').trigger('submit');
    expect(w!.find('[data-test="near-me-error"]').text()).toMatch(/latitude and a longitude/);
  });
});
