/**
 * "Share for the field…" of a drawn area (the catalog's filters) and of a saved search (its
 * row), as `eo package export --area FILE` and `--search NAME` do: the package's plan asked
 * with that selection, in happy-dom over the memory bridge.
 */
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryBridge, type MemoryBridge } from '../../../__tests__/memory-bridge';
import { provideBridge } from '../../../stores/bridge-provider';
import { useCatalogStore } from '../../../stores/catalog-store';
import FilterPanel from '../../../features/catalog/FilterPanel.vue';
import SavedSearches from '../../../features/catalog/SavedSearches.vue';

let bridge: MemoryBridge;
let wrapper: VueWrapper | null = null;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge({ records: 2 });
  provideBridge(bridge);
});
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

const planned = () => bridge.calls.filter((c) => c.method === 'packages.plan').map((c) => c.input);
const square = {
  type: 'Polygon' as const,
  coordinates: [
    [
      [4, 43],
      [5, 43],
      [5, 44],
      [4, 44],
      [4, 43],
    ],
  ],
};

describe('Share for the field… of an area or a search', () => {
  it('offers the drawn area’s package, and none without a drawn area', async () => {
    const catalog = useCatalogStore();
    wrapper = mount(FilterPanel, { attachTo: document.body });
    await flushPromises();
    expect(wrapper.find('[data-test="share-package-plan"]').exists()).toBe(false);
    catalog.filters.area = { kind: 'polygon', geometry: square };
    await flushPromises();
    await expect.poll(() => wrapper!.find('[data-test="share-package-plan"]').exists()).toBe(true);
    await wrapper.find('[data-test="share-package-plan"]').trigger('click');
    await flushPromises();
    expect(planned()).toMatchObject([{ selection: { kind: 'area', area: square } }]);
    expect(wrapper.find('[data-test="share-package-contents"]').exists()).toBe(true);
  });

  it('offers each saved search’s package, with its filters', async () => {
    bridge.saved = [
      {
        id: 's-1',
        name: 'North fields',
        query: { bbox: [4, 43, 5, 44] },
        createdAt: '2024-05-17T08:00:00.000Z',
        updatedAt: '2024-05-17T08:00:00.000Z',
      },
    ];
    wrapper = mount(SavedSearches, { attachTo: document.body });
    await flushPromises();
    await expect.poll(() => wrapper!.find('[data-test="share-package-plan"]').exists()).toBe(true);
    await wrapper.find('[data-test="share-package-plan"]').trigger('click');
    await flushPromises();
    expect(planned()).toMatchObject([
      {
        selection: {
          kind: 'catalogSearch',
          name: 'North fields',
          search: { bbox: [4, 43, 5, 44] },
        },
      },
    ]);
  });
});
