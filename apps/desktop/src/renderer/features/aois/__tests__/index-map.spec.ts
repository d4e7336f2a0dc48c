/**
 * The open AOI's index map on the AOIs map: its mirrored maps listed (newest first chosen), the
 * chosen one drawn as an image overlay over its bounds from the mirror's picture URL, the
 * legend (colour ramp, min and max, index name and date), the Show toggle and the opacity.
 */
import { buildAoi, createRng } from '@eo/domain/testing';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import L from 'leaflet';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IndexMapView } from '../../../../shared/contract';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { provideBridge } from '../../../stores/bridge-provider';
import GeometryMap from '../../../map/GeometryMap.vue';
import { browserQuicklookUrl, provideQuicklookUrl } from '../../../ui/quicklook-source';
import AoisScreen from '../AoisScreen.vue';
import { legendGradient } from '../index-map-store';

let bridge: MemoryBridge;
let wrapper: VueWrapper | null = null;

const map = (date: string, over: Partial<IndexMapView['legend']> = {}): IndexMapView => ({
  visualizationId: 'vis-1',
  date,
  variant: `index-${date}`,
  legend: {
    bounds: [11.2, 44.4, 11.3, 44.5],
    rescale: [-1, 1],
    colormap: 'RdYlGn',
    index_id: 'idx-ndvi',
    index_name: 'NDVI',
    ...over,
  },
});

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 2 });
  provideBridge(bridge);
  provideQuicklookUrl(browserQuicklookUrl('tok'));
  const rng = createRng(3);
  bridge.work.aois = [
    buildAoi({ aoi_id: 'aoi-1', name: 'Delta fields', status: 'success' }, { rng }),
    buildAoi({ aoi_id: 'aoi-2', name: 'Hill orchards', status: 'success' }, { rng }),
  ];
  bridge.work.indexMaps = [
    { ...map('2024-06-02'), aoiId: 'aoi-1' },
    { ...map('2024-05-01', { rescale: [0, 0.8], colormap: 'Blues' }), aoiId: 'aoi-1' },
  ];
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
  provideQuicklookUrl(null);
});

async function openAoi(id: string) {
  wrapper ??= mount(AoisScreen, { attachTo: document.body });
  await flushPromises();
  await wrapper.find(`[data-test="aoi-row-${id}"]`).trigger('click');
  await flushPromises();
  return wrapper;
}

const overlays = (w: VueWrapper) => {
  const m = w.findComponent(GeometryMap).vm.internals().map as L.Map;
  const out: L.ImageOverlay[] = [];
  m.eachLayer((l) => {
    if (l instanceof L.ImageOverlay) out.push(l);
  });
  return out;
};

describe('index maps on the AOIs map', () => {
  it('draws the newest map over its bounds, from the mirror, with its legend', async () => {
    const w = await openAoi('aoi-1');
    expect(bridge.calls.filter((c) => c.method === 'aois.indexMaps').at(-1)?.input).toEqual({
      aoiId: 'aoi-1',
    });
    const [o] = overlays(w);
    expect(o).toBeDefined();
    expect(o!.getElement()!.getAttribute('src')).toBe(
      '/api/quicklooks/index-2024-06-02/vis-1?token=tok',
    );
    const b = o!.getBounds();
    expect([b.getWest(), b.getSouth(), b.getEast(), b.getNorth()]).toEqual([
      11.2, 44.4, 11.3, 44.5,
    ]);
    const legend = w.find('[data-test="index-map-legend"]');
    expect(legend.text()).toContain('NDVI');
    expect(legend.text()).toContain('2024-06-02');
    expect(legend.find('[data-test="legend-min"]').text()).toBe('-1');
    expect(legend.find('[data-test="legend-max"]').text()).toBe('1');
    expect(legend.find('.index-map__ramp').attributes('style')).toContain('linear-gradient');
  });

  it('another date, the opacity and the toggle change what is drawn', async () => {
    const w = await openAoi('aoi-1');
    await w.find('[data-test="index-map-choice"]').setValue('vis-1|2024-05-01');
    await flushPromises();
    expect(overlays(w)).toHaveLength(1);
    expect(overlays(w)[0]!.getElement()!.getAttribute('src')).toContain('index-2024-05-01');
    expect(w.find('[data-test="legend-max"]').text()).toBe('0.8');
    await w.find('[data-test="index-map-opacity"]').setValue('0.4');
    await flushPromises();
    expect(overlays(w)[0]!.options.opacity).toBe(0.4);
    await w.find('[data-test="index-map-toggle"]').setValue(false);
    await flushPromises();
    expect(overlays(w)).toHaveLength(0);
    await w.find('[data-test="index-map-toggle"]').setValue(true);
    await flushPromises();
    expect(overlays(w)).toHaveLength(1);
  });

  it('an AOI without index maps shows no panel and no overlay', async () => {
    const w = await openAoi('aoi-1');
    expect(overlays(w)).toHaveLength(1);
    await openAoi('aoi-2');
    expect(overlays(w)).toHaveLength(0);
    expect(w.find('[data-test="index-map-panel"]').exists()).toBe(false);
  });

  it('the legend ramp follows the colormap (unknown: viridis; composites: gray)', () => {
    expect(legendGradient('Blues')).toBe(
      'linear-gradient(to right, #f7fbff, #c6dbef, #6baed6, #2171b5, #08306b)',
    );
    expect(legendGradient('nope')).toContain('#440154');
    expect(legendGradient('rgb')).toBe('linear-gradient(to right, #000000, #ffffff)');
  });
});
