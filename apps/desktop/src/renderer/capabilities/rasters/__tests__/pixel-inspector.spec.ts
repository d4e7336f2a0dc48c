/**
 * The pixel inspector's "At my position": the device's position (navigator.geolocation, a stub
 * here) read on the open raster (every band, the index, the position's accuracy in pixels), or
 * a clear word when the position is outside the raster or unknown; reachable by keyboard.
 */
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryBridge } from '../../../__tests__/memory-bridge';
import { deviceSays, restoreGeolocation } from '../../../map/__tests__/geolocation-stub';
import { provideBridge } from '../../../stores/bridge-provider';
import PixelInspector from '../PixelInspector.vue';
import { provideRasterClient, type RasterClient } from '../raster-client';
import { useRastersStore } from '../rasters-store';
import { rasterInfo, storedRaster } from './stored-rasters';

/** Inside the raster: [6.63, 46.5, 6.77, 46.6]. */
const FIELD = { lat: 46.55, lon: 6.7 };
let asked: { lon: number; lat: number; index: unknown }[];

beforeEach(() => {
  setActivePinia(createPinia());
  provideBridge(createMemoryBridge());
  asked = [];
  const client: Partial<RasterClient> = {
    async pixel(_id, lon, lat, index) {
      asked.push({ lon, lat, index });
      const inside = lon >= 6.63 && lon <= 6.77 && lat >= 46.5 && lat <= 46.6;
      return inside ? { col: 700, row: 300, raw: [300, 800, 400, 4500], index: [0.837] } : null;
    },
  };
  provideRasterClient(client as RasterClient);
  const rasters = useRastersStore();
  rasters.rasters = [storedRaster('r-1', { label: 'Field 7' })];
  rasters.openId = 'r-1';
  rasters.info = rasterInfo();
});
afterEach(() => {
  provideRasterClient(null);
  restoreGeolocation();
});

const mountInspector = () =>
  mount(PixelInspector, { props: { centre: () => null }, attachTo: document.body });

describe('the pixel inspector at my position', () => {
  it('reads every band and the index under the device, with its accuracy in pixels', async () => {
    deviceSays({ ...FIELD, accuracy: 24 });
    const w = mountInspector();
    const button = w.get('[data-test="inspect-position"]');
    expect(button.element.tagName).toBe('BUTTON');
    expect(button.text()).toBe('At my position');
    await button.trigger('click');
    await flushPromises();
    expect(asked).toEqual([
      { lon: 6.7, lat: 46.55, index: expect.objectContaining({ bandMap: [3, 2] }) },
    ]);
    expect(w.get('[data-test="pixel-band-B08"]').text()).toMatch(/B08\s*4500\s*0\.4500/);
    expect(w.get('[data-test="pixel-index"]').text()).toBe('0.837');
    expect(w.get('[data-test="pixel-latlon"]').text()).toMatch(/46\.55/);
    expect(w.get('[data-test="pixel-accuracy"]').text()).toBe('yours, ±24 m (about 2 px)');
    expect(w.find('[data-test="inspect-outside"]').exists()).toBe(false);
    expect(useRastersStore().inspectAt).toEqual({ ...FIELD, source: 'position' });
    w.unmount();
  });

  it('says so when the position is outside the raster', async () => {
    deviceSays({ lat: 46.2044, lon: 6.1432, accuracy: 10 });
    const w = mountInspector();
    await w.get('[data-test="inspect-position"]').trigger('click');
    await flushPromises();
    const said = w.get('[data-test="inspect-outside"]');
    expect(said.attributes('role')).toBe('status');
    expect(said.text()).toBe(
      'Your position (46.20440, 6.14320) is outside this raster: it covers Field 7.',
    );
    expect(w.find('[data-test="pixel-reading"]').exists()).toBe(false);
    w.unmount();
  });

  it('says why the position is unknown (no service, not allowed, not found), as an alert', async () => {
    const w = mountInspector();
    for (const [answer, words] of [
      ['none', /no location service/],
      [{ code: 1 }, /not allowed/],
      [{ code: 2 }, /found none in time/],
    ] as const) {
      deviceSays(answer);
      await w.get('[data-test="inspect-position"]').trigger('click');
      await flushPromises();
      const said = w.get('[data-test="inspect-position-problem"]');
      expect(said.attributes('role')).toBe('alert');
      expect(said.text()).toMatch(/^Your position is unknown: /);
      expect(said.text()).toMatch(words);
    }
    expect(asked).toEqual([]);
    // Clear takes the message away.
    await w.get('button:last-of-type').trigger('click');
    expect(w.find('[data-test="inspect-position-problem"]').exists()).toBe(false);
    w.unmount();
  });

  it('says it is finding the position while the device answers, and asks once', async () => {
    let answer: (p: GeolocationPosition) => void = () => undefined;
    let calls = 0;
    Object.defineProperty(navigator, 'geolocation', {
      configurable: true,
      value: {
        getCurrentPosition: (ok: PositionCallback) => {
          calls++;
          answer = ok;
        },
      },
    });
    const w = mountInspector();
    await w.get('[data-test="inspect-position"]').trigger('click');
    expect(w.get('[data-test="inspect-locating"]').text()).toBe('Finding your position…');
    expect(w.get('[data-test="inspect-position"]').attributes('disabled')).toBeDefined();
    await w.get('[data-test="inspect-position"]').trigger('click');
    expect(calls).toBe(1);
    answer({
      coords: { latitude: FIELD.lat, longitude: FIELD.lon, accuracy: 5 },
    } as GeolocationPosition);
    await flushPromises();
    expect(w.find('[data-test="inspect-locating"]').exists()).toBe(false);
    expect(w.get('[data-test="pixel-accuracy"]').text()).toBe('yours, ±5 m (about 1 px)');
    w.unmount();
  });
});
