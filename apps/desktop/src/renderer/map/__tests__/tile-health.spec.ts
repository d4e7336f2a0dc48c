/**
 * Online tiles that fail keep the offline basemap and say so: "Online tiles unavailable:
 * <reason>; showing the offline map", shown by MapHints, cleared once tiles load again; the
 * offline place names show while the tiles fail.
 */
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defineComponent, h, ref } from 'vue';
import { ContractError } from '../../../shared/contract';
import {
  createMemoryBridge,
  defaultSettings,
  type MemoryBridge,
} from '../../__tests__/memory-bridge';
import { useSettingsStore } from '../../stores/settings-store';
import { provideBridge } from '../../stores/bridge-provider';
import MapHints from '../MapHints.vue';
import { useBaseMap } from '../use-base-map';
import { giveElementsSize } from './layout';

let base: ReturnType<typeof useBaseMap>;
let wrapper: VueWrapper | null = null;
let bridge: MemoryBridge;
let undoSize: () => void;

const TestMap = defineComponent({
  setup() {
    const el = ref<HTMLDivElement | null>(null);
    base = useBaseMap(el);
    return () =>
      h('div', [
        h('div', { ref: el }),
        h(MapHints, {
          drawing: false,
          drawReady: false,
          note: base.note.value,
          tileNote: base.tileNote.value,
        }),
      ]);
  },
});

beforeEach(() => {
  undoSize = giveElementsSize(512, 512);
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 0 });
  provideBridge(bridge);
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
  undoSize();
});

const placesShown = () => (base.basemap()!.labels as unknown as { showPlaces: boolean }).showPlaces;

describe('online tiles that fail', () => {
  it('say why and that the offline map shows, and clear when tiles load', async () => {
    bridge.failWith(
      'tiles.get',
      new ContractError('offline', 'the tile server could not be reached'),
    );
    useSettingsStore().settings = {
      ...defaultSettings(),
      tileUrl: 'https://tiles.example.org/{z}/{x}/{y}.png',
    };
    wrapper = mount(TestMap, { attachTo: document.body });
    await flushPromises();
    await flushPromises();
    const note = () => wrapper!.find('[data-test="tile-note"]');
    expect(note().exists()).toBe(true);
    expect(note().text()).toBe(
      'Online tiles unavailable: the tile server could not be reached; showing the offline map',
    );
    expect(note().attributes('role')).toBe('status');
    expect(placesShown()).toBe(true);

    // The tile server is back (or the tiles are cached): the next view's tiles load.
    bridge.failWith('tiles.get', null);
    const png1x1 =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    const original = bridge.call.bind(bridge);
    bridge.call = ((method: string, input: unknown) =>
      method === 'tiles.get'
        ? Promise.resolve({ contentType: 'image/png', base64: png1x1 })
        : original(method as never, input as never)) as typeof bridge.call;
    const map = base.map.value!;
    map.setZoom(map.getZoom() + 1, { animate: false });
    await flushPromises();
    // happy-dom decodes no images: the layer's tiles end when their onload fires.
    for (const img of document.querySelectorAll<HTMLImageElement>('.leaflet-tile-container img')) {
      img.onload?.(new Event('load'));
    }
    await flushPromises();
    expect(note().exists()).toBe(false);
    expect(placesShown()).toBe(false);
  });

  it('says nothing while no tile URL is set', async () => {
    wrapper = mount(TestMap, { attachTo: document.body });
    await flushPromises();
    expect(wrapper.find('[data-test="tile-note"]').exists()).toBe(false);
    expect(placesShown()).toBe(true);
  });
});
