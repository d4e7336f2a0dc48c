/** `catalog.*` and `savedSearches.*`: the catalog browser over the mirror, and saved searches. */
import type { catalogMethods } from './contract';
import type { CatalogView } from '../../backend/catalog-view';
import type { HandlersFor } from '../../backend/dispatch';
import type { DesktopStore } from '../../backend/local-store';

export type CatalogHandlers = HandlersFor<keyof typeof catalogMethods>;

export function catalogHandlers(catalog: CatalogView, store: DesktopStore): CatalogHandlers {
  return {
    'catalog.search': (q) => catalog.search(q),
    'catalog.footprints': (q) => catalog.footprints(q),
    'catalog.cloudHistogram': (q) => catalog.cloudHistogram(q),
    'catalog.get': ({ id }) => catalog.get(id),
    'savedSearches.list': () => store.savedSearches(),
    'savedSearches.save': (s) => store.saveSearch(s),
    'savedSearches.remove': ({ id }) => ({ removed: store.removeSearch(id) }),
  };
}
