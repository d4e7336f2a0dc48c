/**
 * A first search that fails puts the catalog's first screen up all the same: the filters (to
 * change what was asked), the saved searches and the basket mount as the error shows, not at the
 * first screen's fallback, and no "results shown" mark is set for the benchmarks. A file of its
 * own: the first screen is shown once per page (ui/first-screen.ts).
 */
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { createMemoryHistory } from 'vue-router';
import { afterEach, describe, expect, it } from 'vitest';
import { ContractError } from '../../../../shared/contract';
import { createMemoryBridge } from '../../../__tests__/memory-bridge';
import { createAppRouter } from '../../../router';
import { provideBridge } from '../../../stores/bridge-provider';
import { useCatalogStore } from '../../../stores/catalog-store';
import CatalogScreen from '../CatalogScreen.vue';

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

describe('the catalog whose first search fails', () => {
  it('shows its filters, saved searches and basket with the error, without the mark', async () => {
    setActivePinia(createPinia());
    const bridge = createMemoryBridge({ records: 6 });
    bridge.failWith('catalog.search', new ContractError('internal', 'database is locked'));
    provideBridge(bridge);
    const router = createAppRouter(createMemoryHistory());
    wrapper = mount(CatalogScreen, { attachTo: document.body, global: { plugins: [router] } });
    const w = wrapper;
    expect(w.find('form.filters').exists()).toBe(false);

    await flushPromises();
    expect(useCatalogStore().status).toBe('error');
    expect(w.find('form.filters').exists()).toBe(true);
    expect(w.find('section.saved').exists()).toBe(true);
    expect(w.find('[data-test="basket"]').exists()).toBe(true);
    expect(performance.getEntriesByName('eo:results-shown')).toHaveLength(0);
  });
});
