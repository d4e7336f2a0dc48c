/**
 * "Compare two scenes" (happy-dom, memory bridge): two basket records, A left of a divider and B
 * right of it; the divider moves by keyboard (a labelled slider) and by dragging; the other
 * quicklooks are hidden meanwhile; each side is clipped at the divider when drawn.
 */
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import L from 'leaflet';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { giveElementsSize } from '../../../map/__tests__/layout';
import { CompareLayer, dividerCanvasX } from '../../../map/compare-layer';
import type { ViewTransform } from '../../../map/draw-footprints';
import type { Placed } from '../../../map/quicklook-layer';
import { provideBridge } from '../../../stores/bridge-provider';
import { useBasketStore } from '../../../stores/basket-store';
import { useCatalogStore } from '../../../stores/catalog-store';
import MapView from '../MapView.vue';
import { browserQuicklookUrl, provideQuicklookUrl } from '../../../ui/quicklook-source';
import { ringOfGeometry } from '../use-compare-swipe';
import { formatLocalDateTime } from '../../../format/units';
import { markResultsShown } from '../../../ui/first-screen';

let bridge: MemoryBridge;
let undoSize: () => void;
let wrapper: VueWrapper | null = null;

beforeEach(() => {
  // A page past its first screen: the quicklook layer is on the map from then on.
  markResultsShown();
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 12 });
  provideBridge(bridge);
  provideQuicklookUrl(browserQuicklookUrl('t'));
  undoSize = giveElementsSize(1000, 600);
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
  undoSize();
  provideQuicklookUrl(null);
});

async function mapWithBasket(ids: string[]) {
  await useCatalogStore().search();
  await useBasketStore().add(ids);
  const w = mount(MapView, { attachTo: document.body });
  wrapper = w;
  await flushPromises();
  return w;
}

describe('compare two scenes', () => {
  it('needs two records in the basket; compares the first two, A left and B right', async () => {
    const [a, b, c] = bridge.records.map((r) => r.id);
    const w = await mapWithBasket([a!]);
    const open = w.find('[data-test="compare-open"]');
    expect(open.attributes('disabled')).toBeDefined();
    expect(open.attributes('title')).toMatch(/two records in the basket/);

    await useBasketStore().add([b!, c!]);
    await flushPromises();
    const { map, quicklooks } = w.vm.internals();
    expect(map!.hasLayer(quicklooks!)).toBe(true);
    await w.find('[data-test="compare-open"]').trigger('click');
    await flushPromises();

    const compare = map!.getPane('eo-compare')!;
    expect(compare).toBeDefined();
    expect((w.find('[data-test="compare-a"]').element as HTMLSelectElement).value).toBe(a);
    expect((w.find('[data-test="compare-b"]').element as HTMLSelectElement).value).toBe(b);
    // Only the two compared scenes show: the other quicklooks are off meanwhile.
    expect(map!.hasLayer(quicklooks!)).toBe(false);
    const handle = w.find('[data-test="compare-handle"]');
    expect(handle.attributes('role')).toBe('slider');
    expect(handle.attributes('tabindex')).toBe('0');
    expect(handle.attributes('aria-label')).toMatch(
      new RegExp(
        `^Divider: .*${bridge.records[0]!.details.properties['platform']} left, .*${bridge.records[1]!.details.properties['platform']} right$`,
      ),
    );
    expect(handle.attributes('aria-valuenow')).toBe('50');

    // B becomes the third record; Swap puts it left.
    await w.find('[data-test="compare-b"]').setValue(c!);
    await flushPromises();
    await w.findAll('[data-test="compare-bar"] button')[0]!.trigger('click');
    await flushPromises();
    expect((w.find('[data-test="compare-a"]').element as HTMLSelectElement).value).toBe(c);
    expect((w.find('[data-test="compare-b"]').element as HTMLSelectElement).value).toBe(a);

    await w.find('[data-test="compare-close"]').trigger('click');
    await flushPromises();
    expect(w.find('[data-test="compare-divider"]').exists()).toBe(false);
    expect(map!.hasLayer(quicklooks!)).toBe(true);
  });

  it('zooms to the pair and names each scene by its date and satellite, as the list does', async () => {
    const [ra, rb] = bridge.records;
    const w = await mapWithBasket([ra!.id, rb!.id]);
    const { map } = w.vm.internals();
    map!.setView([-60, 100], 9, { animate: false });
    await w.find('[data-test="compare-open"]').trigger('click');
    await flushPromises();
    const pair = L.latLngBounds([]);
    for (const r of [ra!, rb!]) {
      for (const [lon, lat] of (r.details.geometry as { coordinates: number[][][] })
        .coordinates[0]!)
        pair.extend([lat!, lon!]);
    }
    expect(pair.contains(map!.getCenter())).toBe(true);
    expect(map!.getBounds().intersects(pair)).toBe(true);
    const options = w.findAll('[data-test="compare-a"] option').map((o) => o.text());
    for (const [i, r] of [ra!, rb!].entries()) {
      expect(options[i]).toBe(
        `${formatLocalDateTime(r.details.properties.datetime!)} · ${String(r.details.properties['platform'])}`,
      );
      expect(options[i]).not.toContain(r.details.id);
    }
  });

  it('the divider moves with the arrow keys, Page Up/Down, Home/End and by dragging', async () => {
    const [a, b] = bridge.records.map((r) => r.id);
    const w = await mapWithBasket([a!, b!]);
    await w.find('[data-test="compare-open"]').trigger('click');
    await flushPromises();
    const handle = () => w.find('[data-test="compare-handle"]');
    const divider = () => w.find('[data-test="compare-divider"]');
    const now = () => handle().attributes('aria-valuenow');

    await handle().trigger('keydown', { key: 'ArrowLeft' });
    expect(now()).toBe('48');
    expect(divider().attributes('style')).toContain('left: 48%');
    await handle().trigger('keydown', { key: 'ArrowRight', shiftKey: true });
    expect(now()).toBe('58');
    await handle().trigger('keydown', { key: 'PageDown' });
    expect(now()).toBe('48');
    await handle().trigger('keydown', { key: 'End' });
    expect(now()).toBe('100');
    expect(handle().attributes('aria-valuetext')).toBe('100 % of the map width shows scene A');
    await handle().trigger('keydown', { key: 'ArrowRight' });
    expect(now()).toBe('100');
    await handle().trigger('keydown', { key: 'Home' });
    expect(now()).toBe('0');

    // Dragging: the pointer's place across the map (its element: 1000 px wide at x 0 here).
    const { map } = w.vm.internals();
    map!.getContainer().getBoundingClientRect = () => ({ left: 0, width: 1000 }) as DOMRect;
    const el = divider().element as HTMLElement;
    let captured = false;
    el.setPointerCapture = () => (captured = true);
    el.hasPointerCapture = () => captured;
    await divider().trigger('pointerdown', { pointerId: 1, clientX: 300 });
    expect(now()).toBe('30');
    await divider().trigger('pointermove', { pointerId: 1, clientX: 725 });
    expect(now()).toBe('73');
    const { layer } = (
      w.findComponent({ name: 'CompareSwipePanel' }).vm as unknown as {
        internals: () => { layer: CompareLayer | null };
      }
    ).internals();
    expect(layer).toBeInstanceOf(CompareLayer);
    expect((layer as unknown as { split: number }).split).toBeCloseTo(0.725, 3);
  });

  it('draws A clipped left of the divider and B right of it', () => {
    const el = document.createElement('div');
    document.body.appendChild(el);
    const map = L.map(el, { center: [0, 0], zoom: 3 });
    const drawnIn: Array<{ id: string; clip: number[] }> = [];
    let clip: number[] = [];
    class Probe extends CompareLayer {
      protected override drawPlaced(_ctx: CanvasRenderingContext2D, _v: ViewTransform, p: Placed) {
        drawnIn.push({ id: p.id, clip });
        return 256;
      }
      draw(ctx: CanvasRenderingContext2D, view: ViewTransform) {
        this.drawCanvas(0, ctx, view);
      }
    }
    const layer = new Probe(() => 'x').addTo(map);
    const square = (lon: number) => [lon, 0, lon + 1, 0, lon + 1, -1, lon, -1, lon, 0];
    layer.setFootprints(['a', 'b'], [square(0), square(0.5)]);
    layer.setPair(['a', 'b']);
    layer.setSplit(0.25);
    const ctx = {
      save() {},
      restore() {},
      beginPath() {},
      clip() {},
      rect: (...r: number[]) => (clip = r),
    } as unknown as CanvasRenderingContext2D;
    const view = (layer as unknown as { view: ViewTransform }).view;
    const x = dividerCanvasX(0.25, 1000, map.getPixelBounds().min!.x, view);
    // The canvas reaches 10 % past the map's left edge (the layer's padding): 100 + 250 px.
    expect(x).toBeCloseTo(350, 0);
    layer.draw(ctx, view);
    expect(drawnIn).toEqual([
      { id: 'a', clip: [0, 0, x, view.height] },
      { id: 'b', clip: [x, 0, view.width - x, view.height] },
    ]);
    map.remove();
    el.remove();
  });

  it('takes a footprint from a Polygon or a MultiPolygon’s outer rings', () => {
    const ring = [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 0],
    ];
    expect(ringOfGeometry({ type: 'Polygon', coordinates: [ring] })).toEqual([
      0, 0, 1, 0, 1, 1, 0, 0,
    ]);
    expect(ringOfGeometry({ type: 'MultiPolygon', coordinates: [[ring], [ring]] })).toHaveLength(
      16,
    );
    expect(ringOfGeometry({ type: 'Point', coordinates: [0, 0] })).toBeNull();
    expect(ringOfGeometry(null)).toBeNull();
  });
});
