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

let base: ReturnType<typeof useBaseMap>;
let wrapper: VueWrapper | null = null;

const TestMap = defineComponent({
  setup() {
    const el = ref<HTMLDivElement | null>(null);
    base = useBaseMap(el);
    return () => h('div', { ref: el, style: 'width: 400px; height: 300px' });
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
});
