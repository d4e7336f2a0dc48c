/**
 * Thumbnails of archive scenes outside the catalog (happy-dom, the memory bridge): an order
 * item's scenes, an AOI's scene assets and the composer's scene list show the mirrored
 * record's picture, at most a few with "+N", and "no preview offline" (never a broken image)
 * for a scene the mirror has no record of. Lookups of one tick go in one `catalog.scenes` call.
 */
import { buildAoi, buildAsset, buildOrderItem, createRng } from '@eo/domain/testing';
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defineComponent, h } from 'vue';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { provideBridge } from '../../../stores/bridge-provider';
import AoiDetails from '../../aois/AoiDetails.vue';
import { useAoisStore } from '../../../stores/aois-store';
import ComposerItem from '../../orders/ComposerItem.vue';
import { useComposerStore } from '../../orders/composer-store';
import OrderItemCard from '../../orders/OrderItemCard.vue';
import { browserQuicklookUrl, provideQuicklookUrl } from '../../../ui/quicklook-source';
import { markResultsShown } from '../../../ui/first-screen';
import SceneThumbs from '../../../ui/SceneThumbs.vue';

let bridge: MemoryBridge;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 8 });
  provideBridge(bridge);
  provideQuicklookUrl(browserQuicklookUrl('t'));
  // The pictures of a screen past the first (they wait for it: ui/first-screen.ts).
  markResultsShown();
});
afterEach(() => provideQuicklookUrl(null));

const scene = (i: number) => bridge.records[i]!.details.id;
const src = (recordId: string) =>
  `/api/quicklooks/thumbnail/${encodeURIComponent(recordId)}?token=t`;
const sceneCalls = () => bridge.calls.filter((c) => c.method === 'catalog.scenes');

describe('SceneThumbs', () => {
  it('shows the first scenes’ pictures, "no preview offline" for the unknown one, +N for the rest', async () => {
    expect(scene(0)).not.toBe(bridge.records[0]!.id);
    const ids = [scene(0), 'not-mirrored', scene(1), scene(2), scene(3)];
    const w = mount(SceneThumbs, { props: { sceneIds: ids, label: 'Scenes of item 1' } });
    // While the lookup runs: grey boxes, neither pictures nor "no preview" yet.
    expect(w.findAll('[data-test="thumb"]').map((t) => t.attributes('data-state'))).toEqual([
      'loading',
      'loading',
      'loading',
    ]);
    expect(w.text()).not.toContain('no preview');
    await flushPromises();

    expect(w.attributes('aria-label')).toBe('Scenes of item 1');
    const items = w.findAll('li[data-scene]');
    expect(items.map((li) => li.attributes('data-scene'))).toEqual(ids.slice(0, 3));
    expect(items[0]!.find('img').attributes('src')).toBe(src(bridge.records[0]!.id));
    expect(items[2]!.find('img').attributes('src')).toBe(src(bridge.records[1]!.id));
    expect(items[1]!.find('img').exists()).toBe(false);
    expect(items[1]!.find('[data-test="thumb"]').attributes('data-state')).toBe('missing');
    expect(items[1]!.text()).toBe('no preview offline');
    expect(w.find('[data-test="scene-thumbs-more"]').text()).toBe('+2');

    // A picture the mirror lost since: its image fails, the placeholder replaces it.
    await items[0]!.find('img').trigger('error');
    expect(items[0]!.find('img').exists()).toBe(false);
    expect(items[0]!.text()).toBe('no preview offline');
    w.unmount();
  });

  it('asks once for all the lists mounted together, and remembers what it found', async () => {
    const Two = defineComponent({
      render: () => [
        h(SceneThumbs, { sceneIds: [scene(0), scene(1)] }),
        h(SceneThumbs, { sceneIds: [scene(2), 'nowhere'] }),
      ],
    });
    const w = mount(Two);
    await flushPromises();
    expect(sceneCalls()).toHaveLength(1);
    expect(sceneCalls()[0]!.input).toEqual({
      sceneIds: [scene(0), scene(1), scene(2), 'nowhere'],
    });
    expect(w.findAll('img')).toHaveLength(3);
    w.unmount();

    // Found scenes are not asked for again; the one not mirrored is (a sync may bring it).
    const again = mount(Two);
    await flushPromises();
    expect(sceneCalls()).toHaveLength(2);
    expect(sceneCalls()[1]!.input).toEqual({ sceneIds: ['nowhere'] });
    again.unmount();
  });
});

describe('thumbnails on the orders and AOIs screens and in the composer', () => {
  it('an order item shows the scenes it orders (placed: images[].item_id)', async () => {
    const item = buildOrderItem(
      {
        id: 'oi-1',
        name: 'Archive pair',
        images: [
          { item_id: scene(4), geometry: null },
          { item_id: scene(5), geometry: null },
        ],
      },
      { rng: createRng(3) },
    );
    const w = mount(OrderItemCard, { props: { item, highlighted: false, selected: false } });
    await flushPromises();
    const list = w.find('[data-test="scene-thumbs"]');
    expect(list.attributes('aria-label')).toBe('Scenes of Archive pair');
    expect(list.findAll('img').map((i) => i.attributes('src'))).toEqual([
      src(bridge.records[4]!.id),
      src(bridge.records[5]!.id),
    ]);
    w.unmount();
  });

  it('an AOI’s scene assets get their scene’s thumbnail; a mosaic none', async () => {
    const rng = createRng(7);
    bridge.work.aois = [buildAoi({ aoi_id: 'aoi-1', name: 'Delta' }, { rng })];
    bridge.work.assets = [
      buildAsset({ id: 'as-1', aoi_id: 'aoi-1', asset_type: 'scene', name: scene(6) }, { rng }),
      buildAsset({ id: 'as-2', aoi_id: 'aoi-1', asset_type: 'mosaic', name: 'm' }, { rng }),
      buildAsset({ id: 'as-3', aoi_id: 'aoi-1', asset_type: 'stac_item', name: 'gone' }, { rng }),
    ];
    const aois = useAoisStore();
    await aois.load();
    aois.select('aoi-1');
    const w = mount(AoiDetails);
    await flushPromises();
    expect(w.find('[data-test="asset-as-1"] img').attributes('src')).toBe(
      src(bridge.records[6]!.id),
    );
    expect(w.find('[data-test="asset-as-2"] [data-test="scene-thumbs"]').exists()).toBe(false);
    expect(w.find('[data-test="asset-as-3"]').text()).toContain('no preview offline');
    w.unmount();
  });

  it('the composer’s scene list shows a thumbnail per listed scene', async () => {
    const composer = useComposerStore();
    const key = composer.items[0]!.key;
    composer.setKind(key, 'archive');
    composer.set(key, 'itemIds', `${scene(0)}\n${scene(7)}\nunknown-scene`);
    const w = mount(ComposerItem, {
      props: { draft: composer.items[0]!, index: 0, active: true, count: 1 },
    });
    await flushPromises();
    const list = w.find('[data-test="scene-thumbs"]');
    expect(list.attributes('aria-label')).toBe('Previews of the scenes of item 1');
    expect(list.findAll('li[data-scene]').map((li) => li.attributes('data-scene'))).toEqual([
      scene(0),
      scene(7),
      'unknown-scene',
    ]);
    expect(list.findAll('img')).toHaveLength(2);
    expect(list.text()).toContain('no preview offline');

    composer.setKind(key, 'tasking');
    await flushPromises();
    expect(w.find('[data-test="scene-thumbs"]').exists()).toBe(false);
    w.unmount();
  });
});
