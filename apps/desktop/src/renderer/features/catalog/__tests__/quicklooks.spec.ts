/**
 * Pictures in the catalog screen (happy-dom): a thumbnail in each result row and in the detail
 * panel from the mirror's URL (a placeholder when the mirror has none), the map's quicklook
 * layer with its toggle and opacity, and the warp that puts a picture on four corners.
 */
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { cornersOfRing, drawOrder, MAX_QUICKLOOKS } from '../../../map/quicklook-layer';
import { insideShifted, panShift } from '../../../map/pan-shift';
import { affineFrom, drawWarped, type Point, type WarpTarget } from '../../../map/warp-image';
import { provideBridge } from '../../../stores/bridge-provider';
import { useCatalogStore } from '../../../stores/catalog-store';
import DetailPanel from '../DetailPanel.vue';
import MapView from '../MapView.vue';
import { listenForPictures, picturesVersion } from '../../../stores/pictures-arrival';
import QuicklookThumb from '../../../ui/QuicklookThumb.vue';
import {
  browserQuicklookUrl,
  electronQuicklookUrl,
  provideQuicklookUrl,
} from '../../../ui/quicklook-source';
import ResultsList from '../ResultsList.vue';
import { markResultsShown } from '../../../ui/first-screen';

let bridge: MemoryBridge;

beforeEach(() => {
  // A page past its first screen: the quicklook layer is on the map from then on.
  markResultsShown();
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 60 });
  provideBridge(bridge);
  provideQuicklookUrl(browserQuicklookUrl('tok en'));
});
afterEach(() => provideQuicklookUrl(null));

describe('quicklook URLs', () => {
  it('browser mode: the GET route with the token; Electron: the scheme; ids encoded', () => {
    expect(browserQuicklookUrl('t+1')('a/b c', 'thumbnail')).toBe(
      '/api/quicklooks/thumbnail/a%2Fb%20c?token=t%2B1',
    );
    expect(electronQuicklookUrl('S2A_1', 'overview')).toBe('eo-quicklook://overview/S2A_1');
  });
});

describe('QuicklookThumb', () => {
  it('loads the record’s thumbnail lazily, shows it once loaded, a placeholder when absent', async () => {
    const w = mount(QuicklookThumb, { props: { recordId: 'rec-1', size: 40 } });
    const img = w.find('img');
    expect(img.attributes('src')).toBe('/api/quicklooks/thumbnail/rec-1?token=tok%20en');
    expect(img.attributes('loading')).toBe('lazy');
    expect(w.attributes('data-state')).toBe('loading');
    await img.trigger('load');
    expect(w.attributes('data-state')).toBe('shown');

    await w.setProps({ recordId: 'rec-2' });
    expect(w.attributes('data-state')).toBe('loading');
    await w.find('img').trigger('error');
    expect(w.attributes('data-state')).toBe('missing');
    expect(w.find('img').exists()).toBe(false);
    expect(w.text()).toContain('no preview offline');
  });

  it('asks again for a missing picture when the sync stored pictures (first start)', async () => {
    const stop = listenForPictures(bridge, 60_000);
    const w = mount(QuicklookThumb, { props: { recordId: 'rec-3' } });
    const first = w.find('img').element;
    await w.find('img').trigger('error');
    expect(w.attributes('data-state')).toBe('missing');
    const before = picturesVersion.value;
    // The imagery pass reports pictures: the first report bumps at once, later ones at most
    // once per interval (here a minute: no second bump), the sync's end always.
    bridge.emit('sync.imagery', { seen: 1, total: 9, bytes: 5 });
    bridge.emit('sync.imagery', { seen: 2, total: 9, bytes: 9 });
    expect(picturesVersion.value).toBe(before + 1);
    await flushPromises();
    expect(w.attributes('data-state')).toBe('loading');
    const again = w.find('img');
    expect(again.element).not.toBe(first);
    expect(again.attributes('src')).toBe('/api/quicklooks/thumbnail/rec-3?token=tok%20en');
    await again.trigger('load');
    expect(w.attributes('data-state')).toBe('shown');
    // A shown picture is left alone by later arrivals.
    bridge.emit('sync.finished', bridge.syncStatus);
    expect(picturesVersion.value).toBe(before + 2);
    await flushPromises();
    expect(w.attributes('data-state')).toBe('shown');
    stop();
    w.unmount();
  });

  it('shows the placeholder when no picture source exists', () => {
    provideQuicklookUrl(null);
    const w = mount(QuicklookThumb, { props: { recordId: 'rec-1' } });
    expect(w.attributes('data-state')).toBe('missing');
    expect(w.find('img').exists()).toBe(false);
  });
});

describe('thumbnails in the catalog screen', () => {
  it('each row on screen has its record’s thumbnail; the detail panel a larger one', async () => {
    const catalog = useCatalogStore();
    await catalog.search();
    const list = mount(ResultsList, { attachTo: document.body });
    await flushPromises();
    const rows = list.findAll('[role="option"]');
    expect(rows.length).toBeGreaterThan(3);
    expect(rows.length).toBeLessThan(60);
    for (const row of rows) {
      const id = row.attributes('data-id')!;
      expect(row.find('[data-test="thumb"] img').attributes('src')).toBe(
        `/api/quicklooks/thumbnail/${encodeURIComponent(id)}?token=tok%20en`,
      );
    }
    const id = rows[0]!.attributes('data-id')!;
    catalog.open(id);
    const detail = mount(DetailPanel);
    await flushPromises();
    const big = detail.find('[data-test="detail-thumb"]');
    expect(big.attributes('style')).toContain('width: 192px');
    expect(big.find('img').attributes('src')).toContain(`/thumbnail/${encodeURIComponent(id)}?`);
    list.unmount();
    detail.unmount();
  });
});

describe('the map’s imagery', () => {
  it('draws on the footprints’ corners, toggles with "Imagery", follows the opacity slider', async () => {
    const catalog = useCatalogStore();
    await catalog.search();
    const wrapper = mount(MapView, { attachTo: document.body });
    await flushPromises();
    const { map, quicklooks } = wrapper.vm.internals();
    expect(quicklooks).not.toBeNull();
    expect(map!.hasLayer(quicklooks!)).toBe(true);
    const pane = map!.getPane('eo-quicklooks')!;
    expect(pane.style.opacity).toBe('0.85');

    const slider = wrapper.find('[data-test="imagery-opacity"]');
    await slider.setValue('0.4');
    expect(pane.style.opacity).toBe('0.4');
    await wrapper.find('[data-test="imagery-toggle"]').setValue(false);
    expect(map!.hasLayer(quicklooks!)).toBe(false);
    expect(slider.attributes('disabled')).toBeDefined();
    await wrapper.find('[data-test="imagery-toggle"]').setValue(true);
    expect(map!.hasLayer(quicklooks!)).toBe(true);
    // Pictures stored by a sync: the map asks again for the ones it found missing.
    const retry = vi.spyOn(quicklooks!, 'retryMissing');
    picturesVersion.value++;
    await flushPromises();
    expect(retry).toHaveBeenCalledTimes(1);
    wrapper.unmount();
  });

  it('draws the open record’s quicklook above all the others (selected scene on top)', async () => {
    const at = (id: string, x: number) => ({ id, box: [x, 0, x + 2, 2] as const });
    const placed = [at('newest', 0), at('older', 1), at('oldest', 1.5), at('away', 50)];
    const view = [0, 0, 10, 10] as const;
    // Back to front: the search's first (newest) drawn last, on top; outside the view: not drawn.
    expect(drawOrder(placed, view, null).map((p) => p.id)).toEqual(['oldest', 'older', 'newest']);
    // The open record goes last, above the newest.
    expect(drawOrder(placed, view, 'oldest').map((p) => p.id)).toEqual([
      'older',
      'newest',
      'oldest',
    ]);
    // Even past the cap of drawn pictures.
    expect(drawOrder(placed, view, 'oldest', 1).map((p) => p.id)).toEqual(['newest', 'oldest']);

    // Opening a record in the catalog puts it on top of the map's layer; closing it, none.
    const catalog = useCatalogStore();
    await catalog.search();
    const wrapper = mount(MapView, { attachTo: document.body });
    await flushPromises();
    const { quicklooks } = wrapper.vm.internals();
    expect(quicklooks!.topId).toBeNull();
    const id = bridge.records[3]!.id;
    await catalog.open(id);
    await flushPromises();
    expect(quicklooks!.topId).toBe(id);
    catalog.closeDetail();
    await flushPromises();
    expect(quicklooks!.topId).toBeNull();
    wrapper.unmount();
  });

  it('after a pan at the same zoom, moves the old canvas and draws only what came into view', () => {
    const view = { scale: 1024, originX: 500, originY: 300, width: 1400, height: 900 };
    const panned = { ...view, originX: 800, originY: 250 };
    expect(panShift(view, panned)).toEqual({ dx: -300, dy: 50 });
    // Another zoom, another size, nothing left in view, half pixels, no previous draw: whole.
    expect(panShift(view, { ...panned, scale: 2048 })).toBeNull();
    expect(panShift(view, { ...panned, width: 1000 })).toBeNull();
    expect(panShift(view, { ...view, originX: 500 + 1400 })).toBeNull();
    expect(panShift(view, { ...view, originX: 500.5 })).toBeNull();
    expect(panShift(null, view)).toBeNull();
    // A picture wholly inside the moved old canvas is kept; one reaching into the new strip not.
    const shift = { dx: -300, dy: 50 };
    expect(insideShifted([10, 60, 200, 400], shift, view)).toBe(true);
    expect(insideShifted([1050, 60, 1100, 400], shift, view)).toBe(true);
    expect(insideShifted([1050, 60, 1101, 400], shift, view)).toBe(false);
    expect(insideShifted([10, 40, 200, 400], shift, view)).toBe(false);
  });

  it('takes a four-corner ring’s corners in order, and the bbox of anything else', () => {
    const ring = [10, 20, 11, 20.2, 10.8, 19, 9.9, 18.8, 10, 20];
    expect(cornersOfRing(ring)).toEqual([
      [10, 20],
      [11, 20.2],
      [10.8, 19],
      [9.9, 18.8],
    ]);
    const six = [0, 0, 2, 0, 3, 1, 2, 2, 0, 2, 0, 0];
    expect(cornersOfRing(six)).toEqual([
      [0, 2],
      [3, 2],
      [3, 0],
      [0, 0],
    ]);
    expect(MAX_QUICKLOOKS).toBe(200);
  });

  it('warps a picture with two affine triangles that land on the four corners', () => {
    const apply = (m: number[], [x, y]: Point): Point => [
      m[0]! * x + m[2]! * y + m[4]!,
      m[1]! * x + m[3]! * y + m[5]!,
    ];
    // Not a parallelogram: br is 6 px off tr + bl - tl = (290, 260).
    const corners: [Point, Point, Point, Point] = [
      [100, 50],
      [300, 70],
      [295, 264],
      [90, 240],
    ];
    let transforms: number[][] = [];
    let clips = 0;
    const ctx = {
      save() {},
      restore() {},
      beginPath() {},
      moveTo() {},
      lineTo() {},
      closePath() {},
      clip: () => clips++,
      transform: (...m: number[]) => transforms.push(m),
      drawImage() {},
    } as unknown as WarpTarget;
    drawWarped(ctx, {} as CanvasImageSource, 256, 256, corners);
    expect(transforms).toHaveLength(2);
    expect(clips).toBe(2);
    const [lower, upper] = transforms as [number[], number[]];
    const close = (a: Point, b: Point) => {
      expect(a[0]).toBeCloseTo(b[0], 6);
      expect(a[1]).toBeCloseTo(b[1], 6);
    };
    // Upper-left triangle: picture (0,0), (256,0), (0,256) on tl, tr, bl.
    close(apply(upper, [0, 0]), corners[0]);
    close(apply(upper, [256, 0]), corners[1]);
    close(apply(upper, [0, 256]), corners[3]);
    // Lower-right triangle: (256,256), (0,256), (256,0) on br, bl, tr.
    close(apply(lower, [256, 256]), corners[2]);
    close(apply(lower, [0, 256]), corners[3]);
    close(apply(lower, [256, 0]), corners[1]);
    expect(affineFrom(2, 2, [0, 0], [2, 0], [0, 2])).toEqual([1, 0, 0, 1, 0, 0]);

    // A parallelogram (within half a pixel): one affine map lands all four corners, no clip.
    transforms = [];
    clips = 0;
    const para: [Point, Point, Point, Point] = [corners[0], corners[1], [290.3, 260.2], corners[3]];
    drawWarped(ctx, {} as CanvasImageSource, 256, 256, para);
    expect(transforms).toHaveLength(1);
    expect(clips).toBe(0);
    close(apply(transforms[0]!, [0, 0]), para[0]);
    close(apply(transforms[0]!, [256, 0]), para[1]);
    close(apply(transforms[0]!, [0, 256]), para[3]);
    expect(apply(transforms[0]!, [256, 256])[0]).toBeCloseTo(290, 6);
  });
});
