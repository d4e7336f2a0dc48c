/**
 * A first search that fails puts the catalog's first screen up all the same: the filters (to
 * change what was asked), the saved searches and the basket mount as the error shows, not at the
 * first screen's fallback, and no "results shown" mark is set for the benchmarks. A file of its
 * own: the first screen is shown once per page (ui/first-screen.ts).
 */
import { flushPromises } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { ContractError } from '../../../../shared/contract';
import { createMemoryBridge } from '../../../__tests__/memory-bridge';
import { useCatalogStore } from '../../../stores/catalog-store';
import { mountCatalogScreen } from './catalog-screen';

describe('the catalog whose first search fails', () => {
  it('shows its filters, saved searches and basket with the error, without the mark', async () => {
    const bridge = createMemoryBridge({ records: 6 });
    bridge.failWith('catalog.search', new ContractError('internal', 'database is locked'));
    const { wrapper: w, panels } = mountCatalogScreen(bridge);
    expect(w.find('form.filters').exists()).toBe(false);

    await flushPromises();
    expect(useCatalogStore().status).toBe('error');
    expect(panels()).toEqual({ filters: true, saved: true, basket: true });
    expect(performance.getEntriesByName('eo:results-shown')).toHaveLength(0);
  });
});
