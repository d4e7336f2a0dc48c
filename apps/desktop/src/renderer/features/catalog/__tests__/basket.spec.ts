/**
 * The basket on screen (issue 17, item 5): read back from the backend when the app starts,
 * listed with the records the search hides marked, removable and emptied, the notice when a
 * queued order takes records, and the "Ordered" badge on rows whose scene is in an order.
 */
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { provideBridge } from '../../../stores/bridge-provider';
import { BASKET_NOTICE_MS, consumedNotice, useBasketStore } from '../../../stores/basket-store';
import { useCatalogStore } from '../../../stores/catalog-store';
import BasketNotice from '../BasketNotice.vue';
import BasketPanel from '../BasketPanel.vue';
import ResultsList from '../ResultsList.vue';

let bridge: MemoryBridge;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 40 });
  provideBridge(bridge);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the basket panel', () => {
  it('shows what the backend kept (a restart), marks records this search hides, removes and empties', async () => {
    const [a, b, c] = bridge.records;
    // What a previous run left in the backend's store.
    bridge.basket.ids = [a!.id, b!.id, 'gone-from-the-mirror'];
    const catalog = useCatalogStore();
    const stop = catalog.listen();
    await catalog.search();
    const panel = mount(BasketPanel, { attachTo: document.body });
    await flushPromises();
    expect(panel.find('[data-test="basket-count"]').text()).toBe('3');
    expect(panel.findAll('[data-basket-id]').map((li) => li.attributes('data-basket-id'))).toEqual([
      a!.id,
      b!.id,
      'gone-from-the-mirror',
    ]);
    expect(panel.find(`[data-basket-id="gone-from-the-mirror"]`).text()).toContain(
      'no longer in the mirror',
    );
    expect(panel.find('[data-test="basket-not-shown"]').exists()).toBe(false);

    // A search that hides b: still in the basket, marked.
    catalog.filters.collections = [a!.details.collection!];
    catalog.filters.cloudMax = Math.ceil(a!.details.properties['eo:cloud_cover'] ?? 100);
    await catalog.search();
    await flushPromises();
    const hiddenIds = [a!, b!].map((r) => r.id).filter((id) => !catalog.positions.has(id));
    expect(hiddenIds.length).toBeGreaterThan(0);
    for (const id of hiddenIds) {
      expect(panel.find(`[data-basket-id="${id}"]`).text()).toContain('not in these results');
    }
    // The one the mirror lost is not in these results either.
    expect(panel.find('[data-test="basket-hidden-count"]').text()).toBe(
      `${hiddenIds.length + 1} not in these results`,
    );

    // "Open" looks at it; the basket stays as it is.
    await panel.find(`[data-basket-id="${a!.id}"] button`).trigger('click');
    await flushPromises();
    expect(catalog.activeId).toBe(a!.id);
    expect(bridge.basket.ids).toHaveLength(3);

    await panel.find(`[data-basket-id="${b!.id}"] [data-test="basket-remove"]`).trigger('click');
    await flushPromises();
    expect(bridge.basket.ids).toEqual([a!.id, 'gone-from-the-mirror']);
    await useBasketStore().add([c!.id]);
    await panel.find('[data-test="basket-clear"]').trigger('click');
    await flushPromises();
    expect(bridge.basket.ids).toEqual([]);
    expect(panel.find('[data-test="basket-empty"]').exists()).toBe(true);
    panel.unmount();
    stop();
  });

  it('says which records a queued order took, on any screen, and badges ordered rows', async () => {
    const catalog = useCatalogStore();
    const stop = catalog.listen();
    await catalog.search();
    // The first two rows: in view in the virtual list.
    const [a, b] = catalog.footprints.ids
      .slice(0, 2)
      .map((id) => bridge.records.find((r) => r.id === id));
    const list = mount(ResultsList, { attachTo: document.body });
    const notice = mount(BasketNotice, { attachTo: document.body });
    await useBasketStore().add([a!.id, b!.id]);
    await flushPromises();
    expect(list.find('[data-test="ordered-badge"]').exists()).toBe(false);

    // The composer queues an archive order of a's scene (the backend takes a out).
    await bridge.call('outbox.enqueue', {
      kind: 'order',
      input: {
        order_items: [
          {
            project_id: 'p',
            name: 'x',
            item_ids: [a!.details.id],
            geometry: {
              type: 'FeatureCollection',
              features: [{ type: 'Feature', properties: {}, geometry: a!.details.geometry }],
            } as never,
          },
        ],
      },
    });
    await flushPromises();
    expect(useBasketStore().ids).toEqual([b!.id]);
    expect(notice.find('[data-test="basket-notice"]').text()).toContain(consumedNotice(1, 'order'));
    expect(consumedNotice(1, 'order')).toBe('1 record left the basket: the queued order takes it.');
    expect(list.find(`[data-id="${a!.id}"] [data-test="ordered-badge"]`).exists()).toBe(true);
    expect(list.find(`[data-id="${b!.id}"] [data-test="ordered-badge"]`).exists()).toBe(false);

    await notice.find('button').trigger('click');
    expect(notice.find('[data-test="basket-notice"]').exists()).toBe(false);
    list.unmount();
    notice.unmount();
    stop();
  });

  it('the notice goes by itself after its time; a newer notice gets its own full time', async () => {
    vi.useFakeTimers();
    const notice = mount(BasketNotice, { attachTo: document.body });
    const basket = useBasketStore();
    basket.notice = consumedNotice(2, 'order');
    basket.noticeSeq++;
    await flushPromises();
    vi.advanceTimersByTime(BASKET_NOTICE_MS - 1000);
    basket.notice = consumedNotice(1, 'delivery');
    basket.noticeSeq++;
    await flushPromises();
    vi.advanceTimersByTime(BASKET_NOTICE_MS - 1000);
    await flushPromises();
    expect(notice.find('[data-test="basket-notice"]').text()).toContain(
      consumedNotice(1, 'delivery'),
    );
    vi.advanceTimersByTime(1000);
    await flushPromises();
    expect(notice.find('[data-test="basket-notice"]').exists()).toBe(false);
    notice.unmount();
  });
});
