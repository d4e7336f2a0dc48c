/**
 * The catalog's first screen builds the map and the list only: the filters, the saved searches
 * and the basket mount once it is up (their code loads then too, lazy-parts.ts), so the page's
 * first task does not build them before the footprints can be drawn. A file of its own: the
 * first screen is shown once per page (ui/first-screen.ts), and this page must start without it.
 */
import { flushPromises } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { createMemoryBridge } from '../../../__tests__/memory-bridge';
import { markResultsShown } from '../../../ui/first-screen';
import { mountCatalogScreen } from './catalog-screen';

describe('the catalog before its first screen is up', () => {
  it('mounts the map and the list at once, the filters, saved searches and basket after', async () => {
    const { wrapper: w, panels } = mountCatalogScreen(createMemoryBridge({ records: 6 }));

    // Read before anything is awaited: the results cannot be shown yet.
    expect(w.find('section.results').exists()).toBe(true);
    expect(w.find('.leaflet-container').exists()).toBe(true);
    expect(panels()).toEqual({ filters: false, saved: false, basket: false });
    // The side column keeps its place (its width is the grid's), empty until then.
    expect(w.find('aside[aria-label="Search"]').exists()).toBe(true);

    markResultsShown();
    await flushPromises();
    expect(panels()).toEqual({ filters: true, saved: true, basket: true });
  });
});
