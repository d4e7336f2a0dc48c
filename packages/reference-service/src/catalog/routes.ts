/** Catalog endpoints owned here: 4.3 POST /v0/catalogs/search. */
import type { AppContext } from '../context';
import type { Router } from '../http/endpoint';
import { registerCatalogSearch } from './search';

export function registerCatalogRoutes(router: Router, ctx: AppContext): void {
  registerCatalogSearch(router, ctx);
}
