/**
 * "Take offline" where a field team meets a scene: an order item (its area first), an AOI's
 * assets (the AOI's area first), and the basket (every record of it still in the mirror).
 */
import { buildAoi, buildAsset, buildOrderItem, createRng } from '@eo/domain/testing';
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { provideBridge } from '../../../stores/bridge-provider';
import AoiDetails from '../../../features/aois/AoiDetails.vue';
import { useAoisStore } from '../../../stores/aois-store';
import BasketPanel from '../../../features/catalog/BasketPanel.vue';
import { useBasketStore } from '../../../stores/basket-store';
import OrderItemCard from '../../../features/orders/OrderItemCard.vue';
import { useTakesStore } from '../takes-store';

let bridge: MemoryBridge;
beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 4 });
  provideBridge(bridge);
});
afterEach(() => useTakesStore().stopFollowing());

const field = {
  type: 'Polygon' as const,
  coordinates: [
    [
      [11.34, 44.49],
      [11.36, 44.49],
      [11.36, 44.51],
      [11.34, 44.49],
    ] as [number, number][],
  ],
};
const takeInput = () => bridge.calls.find((c) => c.method === 'rasters.take')?.input;

describe('Take offline from the app’s other screens', () => {
  it('an order item: its own area (from its FeatureCollection) as the site', async () => {
    const item = buildOrderItem(
      {
        id: 'oi-1',
        name: 'Plot A',
        geometry: {
          type: 'FeatureCollection',
          features: [{ type: 'Feature', properties: {}, geometry: field }],
        },
      },
      { rng: createRng(3) },
    );
    const w = mount(OrderItemCard, { props: { item, highlighted: false, selected: false } });
    expect(w.find('[data-test="take-offline"]').exists()).toBe(false);
    await w.get('[data-test="item-take-offline"]').trigger('click');
    await flushPromises();
    expect(w.get('[data-test="take-offline"]').text()).toContain('Item Plot A');
    await w.get('[data-test="take-resolution"]').setValue('20');
    await w.get('[data-test="take-start"]').trigger('click');
    await flushPromises();
    expect(takeInput()).toEqual({
      scene: { kind: 'order_item', id: 'oi-1' },
      resolution: { metres: 20 },
      area: { kind: 'shape', label: 'Item Plot A', geometry: field },
    });
    w.unmount();
  });

  it("an AOI's asset: the AOI's area as the site, the asset and its AOI named", async () => {
    const rng = createRng(7);
    bridge.work.aois = [buildAoi({ aoi_id: 'aoi-1', name: 'Delta', geometry: field }, { rng })];
    bridge.work.assets = [
      buildAsset({ id: 'as-1', aoi_id: 'aoi-1', asset_type: 'scene', name: 'S' }, { rng }),
    ];
    const aois = useAoisStore();
    await aois.load();
    aois.select('aoi-1');
    const w = mount(AoiDetails);
    await flushPromises();
    await w.get('[data-test="asset-as-1"] [data-test="asset-take-offline"]').trigger('click');
    await w.get('[data-test="take-start"]').trigger('click');
    await flushPromises();
    expect(takeInput()).toEqual({
      scene: { kind: 'aoi_asset', id: 'as-1', aoiId: 'aoi-1' },
      resolution: 'native',
      area: { kind: 'shape', label: 'AOI Delta', geometry: field },
    });
    w.unmount();
  });

  it('the basket: one take per record still in the mirror', async () => {
    const [a, b] = bridge.records;
    bridge.basket.ids = [a!.id, b!.id, 'gone-from-the-mirror'];
    await useBasketStore().load();
    const w = mount(BasketPanel);
    await flushPromises();
    await w.get('[data-test="basket-take-offline"]').trigger('click');
    expect(w.get('[data-test="take-offline"]').text()).toContain('2 scenes');
    await w.get('input[value="view"]').setValue(true);
    // No map view in this test: nothing to take yet, said so.
    expect(w.get('[data-test="take-no-area"]').text()).toMatch(/no view/);
    await w.get('input[value="around"]').setValue(true);
    // Neither a position nor a map centre: still nothing to take.
    expect(w.get('[data-test="take-start"]').attributes('disabled')).toBeDefined();
    w.unmount();
  });

  it("the basket's archive scenes: taken as the catalog record that shows them, the others left out with a word", async () => {
    const [a, b] = bridge.records;
    bridge.basket.ids = [a!.id];
    await useBasketStore().load();
    const archive = (id: string) => ({
      id,
      sceneId: id,
      collection: null,
      datetime: null,
      platform: 'sat-aurora-1',
      inMirror: false,
      addedAt: '2024-05-10T10:00:00.000Z',
      archive: { footprint: [11, 44, 12, 44, 12, 45, 11, 45] },
    });
    // One archive scene the mirror shows as record b, one it holds no record of.
    useBasketStore().entries = [
      ...useBasketStore().entries,
      archive(b!.details.id),
      archive('AUR1_NEVER_DELIVERED'),
    ];
    const w = mount(BasketPanel);
    await flushPromises();
    await w.get('[data-test="basket-take-offline"]').trigger('click');
    await flushPromises();
    expect(w.get('[data-test="take-offline"]').text()).toContain('2 scenes');
    expect(w.get('[data-test="basket-offline-left-out"]').text()).toBe(
      '1 archive scene is left out: no imagery of it is held until ordered and delivered.',
    );
    w.unmount();
  });
});
