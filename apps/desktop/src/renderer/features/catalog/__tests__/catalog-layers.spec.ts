/**
 * The catalog map's layer control (MapLayers.vue + catalog-layers.ts) on the real MapView in
 * happy-dom: footprints on and off, the mirrored AOIs drawn, the basemap switched between
 * offline and the configured tiles, and every choice remembered for the next mount.
 */
import { buildAoi } from '@eo/domain/testing';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import type L from 'leaflet';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createMemoryBridge,
  defaultSettings,
  type MemoryBridge,
} from '../../../__tests__/memory-bridge';
import { BridgeTileLayer } from '../../../map/bridge-tile-layer';
import { nearestCluster } from '../../../map/cluster-layer';
import { unmercX, unmercY } from '../../../map/mercator';
import { giveElementsSize } from '../../../map/__tests__/layout';
import { DEFAULT_LAYERS, readLayerState } from '../../../map/layer-state';
import { provideBridge } from '../../../stores/bridge-provider';
import { useSettingsStore } from '../../settings/settings-store';
import { useCatalogStore } from '../catalog-store';
import { CATALOG_LAYERS_KEY } from '../catalog-layers';
import MapView from '../MapView.vue';

let bridge: MemoryBridge;
let wrapper: VueWrapper<InstanceType<typeof MapView>> | null = null;

beforeEach(() => {
  localStorage.clear();
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 10 });
  provideBridge(bridge);
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

async function mountMap(): Promise<{ map: L.Map; footprints: L.Layer }> {
  await useCatalogStore().search();
  wrapper = mount(MapView, { attachTo: document.body });
  await flushPromises();
  const { map, footprints } = wrapper.vm.internals();
  return { map: map!, footprints: footprints! };
}

async function openLayers(): Promise<void> {
  await wrapper!.find('[data-test="layers-button"]').trigger('click');
}

const tileLayers = (map: L.Map) => {
  const out: L.Layer[] = [];
  map.eachLayer((l) => void (l instanceof BridgeTileLayer && out.push(l)));
  return out;
};

describe('readLayerState', () => {
  it('keeps what is valid of a stored state and defaults the rest', () => {
    expect(readLayerState(null)).toEqual(DEFAULT_LAYERS);
    expect(readLayerState('not json')).toEqual(DEFAULT_LAYERS);
    expect(readLayerState('{"basemap":"offline","footprints":false,"aois":"yes"}')).toEqual({
      ...DEFAULT_LAYERS,
      basemap: 'offline',
      footprints: false,
    });
  });
});

describe('the catalog map layer control', () => {
  it('turns footprints off and on, and remembers it', async () => {
    const { map, footprints } = await mountMap();
    expect(map.hasLayer(footprints)).toBe(true);
    await openLayers();
    await wrapper!.find('[data-test="layer-footprints"]').setValue(false);
    expect(map.hasLayer(footprints)).toBe(false);
    expect(JSON.parse(localStorage.getItem(CATALOG_LAYERS_KEY)!).footprints).toBe(false);

    wrapper!.unmount();
    const again = await mountMap();
    expect(again.map.hasLayer(again.footprints)).toBe(false);
    await openLayers();
    await wrapper!.find('[data-test="layer-footprints"]').setValue(true);
    expect(again.map.hasLayer(again.footprints)).toBe(true);
  });

  it('draws the mirrored AOIs when asked', async () => {
    bridge.work.aois.push(
      buildAoi({
        aoi_id: 'aoi-1',
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [10, 10],
              [11, 10],
              [11, 11],
              [10, 10],
            ],
          ],
        },
      }),
    );
    const { map } = await mountMap();
    const paths = () => map.getPane('overlayPane')!.querySelectorAll('path').length;
    const before = paths();
    await openLayers();
    await wrapper!.find('[data-test="layer-aois"]').setValue(true);
    await flushPromises();
    expect(paths()).toBe(before + 1);
    await wrapper!.find('[data-test="layer-aois"]').setValue(false);
    expect(paths()).toBe(before);
  });

  it('switches between the configured tiles and the offline map', async () => {
    useSettingsStore().settings = {
      ...defaultSettings(),
      tileUrl: 'https://tiles.example.org/{z}/{x}/{y}.png',
    };
    const { map } = await mountMap();
    expect(tileLayers(map)).toHaveLength(1);
    await openLayers();
    await wrapper!.find('input[value="offline"]').setValue(true);
    await flushPromises();
    expect(tileLayers(map)).toHaveLength(0);
    await wrapper!.find('input[value="online"]').setValue(true);
    await flushPromises();
    expect(tileLayers(map)).toHaveLength(1);
  });

  it('offers online tiles only when a tile URL is set', async () => {
    await mountMap();
    await openLayers();
    const online = wrapper!.find('input[value="online"]').element as HTMLInputElement;
    expect(online.disabled).toBe(true);
    expect(online.checked).toBe(false);
    // The offline map is what shows, and is marked so.
    expect((wrapper!.find('input[value="offline"]').element as HTMLInputElement).checked).toBe(
      true,
    );
    expect(wrapper!.find('[data-test="map-layers"]').text()).toContain('(no tile URL set)');
  });
});

describe('footprint clusters on the catalog map', () => {
  it('show counts at world zoom and zoom in when clicked', async () => {
    const undo = giveElementsSize(1000, 700);
    try {
      const { map } = await mountMap();
      const { clusters } = wrapper!.vm.internals();
      map.setView([0, 0], 2, { animate: false });
      const markers = () => [...document.querySelectorAll<HTMLElement>('.eo-cluster')];
      const shown = clusters!.clusters;
      // Some of the 10 generated scenes bunch together at world zoom (the counts add up).
      const counted = shown.reduce((n, c) => n + c.count, 0);
      expect(markers().map((m) => Number(m.textContent))).toEqual(shown.map((c) => c.count));
      expect(counted).toBeLessThanOrEqual(10);
      if (shown.length === 0) throw new Error('no cluster at zoom 2: the test data changed');
      const before = map.getZoom();
      markers()[0]!.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      expect(map.getZoom()).toBeGreaterThan(before);
      // Footprints off: their clusters go too.
      await openLayers();
      await wrapper!.find('[data-test="layer-footprints"]').setValue(false);
      expect(markers()).toEqual([]);
    } finally {
      undo();
    }
  });

  it('are no Tab stops: the map is one, and Enter on it zooms in on the cluster nearest the centre', async () => {
    const undo = giveElementsSize(1000, 700);
    try {
      const { map } = await mountMap();
      const { clusters } = wrapper!.vm.internals();
      const markers = () => [...document.querySelectorAll<HTMLElement>('.eo-cluster')];
      map.setView([0, 0], 2, { animate: false });
      const shown = clusters!.clusters;
      if (shown.length === 0) throw new Error('no cluster at zoom 2: the test data changed');
      // Issue 26: 32 clusters in the Tab order put the results 94 Tabs away.
      for (const m of markers()) {
        expect(m.tabIndex).toBe(-1);
        expect(m.getAttribute('aria-hidden')).toBe('true');
      }
      const target = nearestCluster(shown, 1000, 700)!;
      const container = map.getContainer();
      container.focus();
      const press = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true });
      container.dispatchEvent(press);
      expect(press.defaultPrevented).toBe(true);
      expect(map.getZoom()).toBeGreaterThan(2);
      // In on that cluster: its centre is inside the view now.
      const [x0, y0, x1, y1] = target.box;
      const centre: [number, number] = [unmercY((y0 + y1) / 2), unmercX((x0 + x1) / 2)];
      expect(map.getBounds().contains(centre)).toBe(true);
      // Other keys are the map's (arrows pan it): no zoom.
      map.setView([0, 0], 2, { animate: false });
      container.dispatchEvent(new KeyboardEvent('keydown', { key: 'a', bubbles: true }));
      expect(map.getZoom()).toBe(2);
    } finally {
      undo();
    }
  });
});
