import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import type L from 'leaflet';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defineComponent, h, ref } from 'vue';
import { createMemoryBridge, defaultSettings } from '../../__tests__/memory-bridge';
import { provideBridge } from '../../stores/bridge-provider';
import { useSettingsStore } from '../../stores/settings-store';
import { BasemapLayer } from '../basemap-layer';
import { BridgeTileLayer } from '../bridge-tile-layer';
import { useBaseMap } from '../use-base-map';
import { giveElementsSize } from './layout';

let base: ReturnType<typeof useBaseMap>;
let wrapper: VueWrapper | null = null;

const TestMap = defineComponent({
  setup() {
    const el = ref<HTMLDivElement | null>(null);
    base = useBaseMap(el);
    return () => h('div', { ref: el, style: 'width: 400px; height: 300px' });
  },
});

const VIEW_KEY = 'test.map-view';
/** A map that opens where it was left (the catalog map's option). */
const KeptMap = defineComponent({
  setup() {
    const el = ref<HTMLDivElement | null>(null);
    base = useBaseMap(el, { viewKey: VIEW_KEY });
    return () => h('div', { ref: el });
  },
});

beforeEach(() => {
  setActivePinia(createPinia());
  provideBridge(createMemoryBridge({ records: 0 }));
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

function layersOf(map: L.Map): L.Layer[] {
  const out: L.Layer[] = [];
  map.eachLayer((layer) => void out.push(layer));
  return out;
}
const tileLayers = (map: L.Map) => layersOf(map).filter((l) => l instanceof BridgeTileLayer);

describe('useBaseMap', () => {
  it('mounts a map with the offline basemap and its attribution', async () => {
    wrapper = mount(TestMap, { attachTo: document.body });
    await flushPromises();
    const map = base.map.value!;
    expect(map).not.toBeNull();
    expect(layersOf(map).filter((l) => l instanceof BasemapLayer)).toHaveLength(1);
    expect(map.attributionControl.getContainer()!.textContent).toContain(
      'Land, water and borders: Natural Earth; places: GeoNames (CC BY 4.0)',
    );
    expect(tileLayers(map)).toEqual([]);
  });

  it('follows the tile URL in settings, one tile layer at a time', async () => {
    const settings = useSettingsStore();
    settings.settings = {
      ...defaultSettings(),
      tileUrl: 'https://tiles.example.org/{z}/{x}/{y}.png',
    };
    wrapper = mount(TestMap, { attachTo: document.body });
    await flushPromises();
    const map = base.map.value!;
    expect(tileLayers(map)).toHaveLength(1);
    const first = tileLayers(map)[0];

    settings.settings = {
      ...settings.settings,
      tileUrl: 'https://other.example.org/{z}/{x}/{y}.png',
    };
    await flushPromises();
    expect(tileLayers(map)).toHaveLength(1);
    expect(tileLayers(map)[0]).not.toBe(first);

    settings.settings = { ...settings.settings, tileUrl: null };
    await flushPromises();
    expect(tileLayers(map)).toEqual([]);
  });

  it('ends drawing when geoman finishes, and removes the map on unmount', async () => {
    wrapper = mount(TestMap, { attachTo: document.body });
    await flushPromises();
    const map = base.map.value!;
    base.drawing.value = true;
    map.fire('pm:drawend');
    expect(base.drawing.value).toBe(false);
    base.drawing.value = true;
    base.stopDraw();
    expect(base.drawing.value).toBe(false);

    let unloaded = false;
    map.on('unload', () => (unloaded = true));
    wrapper.unmount();
    wrapper = null;
    expect(unloaded).toBe(true);
    expect(base.map.value).toBeNull();
  });

  it('opens where it was left, kept under its key; a stored value that is no view gives the default', async () => {
    const undo = giveElementsSize(800, 600);
    try {
      localStorage.setItem(VIEW_KEY, JSON.stringify({ lat: 48.2, lng: 16.4, zoom: 7 }));
      wrapper = mount(KeptMap, { attachTo: document.body });
      await flushPromises();
      let map = base.map.value!;
      expect(map.getZoom()).toBe(7);
      expect(map.getCenter().lat).toBeCloseTo(48.2, 1);
      expect(map.getCenter().lng).toBeCloseTo(16.4, 1);
      // Every move's end is kept, and the next map opens there.
      map.setView([-33.9, 18.4], 9, { animate: false });
      expect(JSON.parse(localStorage.getItem(VIEW_KEY)!)).toMatchObject({ zoom: 9 });
      wrapper.unmount();
      wrapper = mount(KeptMap, { attachTo: document.body });
      await flushPromises();
      map = base.map.value!;
      expect([
        map.getZoom(),
        Math.round(map.getCenter().lat),
        Math.round(map.getCenter().lng),
      ]).toEqual([9, -34, 18]);
      wrapper.unmount();
      // Hand-edited or older values: not a view, so the default view (and no error).
      for (const bad of [
        '{"lat":91,"lng":0,"zoom":3}',
        'not json',
        '{"lat":"1","lng":2,"zoom":3}',
        '[]',
        'null',
      ]) {
        localStorage.setItem(VIEW_KEY, bad);
        wrapper = mount(KeptMap, { attachTo: document.body });
        await flushPromises();
        map = base.map.value!;
        expect([map.getZoom(), map.getCenter().lat]).toEqual([2, 20]);
        wrapper.unmount();
      }
      wrapper = null;
    } finally {
      localStorage.removeItem(VIEW_KEY);
      undo();
    }
  });
});
