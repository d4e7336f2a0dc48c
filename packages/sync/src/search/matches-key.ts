/**
 * The key of the records a search request matches: the request less its paging and order,
 * which change which rows a page shows, not which records match. Answers over every match (the
 * footprints, the cloud histogram) are kept under it.
 */
import type { CatalogSearchRequest } from '@eo/domain';

export function matchesKey(req: CatalogSearchRequest): string {
  return JSON.stringify({ ...req, limit: undefined, offset: undefined, sort_by: undefined });
}
