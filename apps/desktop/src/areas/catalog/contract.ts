/** The catalog browser: searches of the mirror, footprints, one record, saved searches. */
import { CLOUD_COVER_BINS, CatalogSearchRequest } from '@eo/domain';
import { z } from 'zod';
import { id, none } from '../../shared/contract/fields';
import { FootprintsBytes } from '../../shared/contract/footprints-wire';

/** The service's catalog search body (spec 4.3), reused as is: same semantics offline. */
export const CatalogQuery = CatalogSearchRequest;
export type CatalogQuery = z.output<typeof CatalogSearchRequest>;
export type CatalogQueryInput = z.input<typeof CatalogSearchRequest>;

/** One row of the virtual list: the few fields it shows, not the whole record. */
export const CatalogRow = z.object({
  id: z.string(),
  collection: z.string().nullable(),
  datetime: z.string().nullable(),
  cloudCover: z.number().nullable(),
  offNadir: z.number().nullable(),
  gsd: z.number().nullable(),
  platform: z.string().nullable(),
  /** [west, south, east, north] */
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]).nullable(),
});
export type CatalogRow = z.infer<typeof CatalogRow>;

export const CatalogPage = z.object({
  total: z.number().int().min(0),
  limit: z.number().int(),
  offset: z.number().int(),
  items: z.array(CatalogRow),
});
export type CatalogPage = z.infer<typeof CatalogPage>;

/**
 * Footprints of ALL matches of a query (limit/offset ignored), for 100k records: ONE binary
 * message (`footprints-wire.ts`: ids, ring offsets, Float32 lon/lat), decoded by the page with
 * `decodeFootprints`. One ring per id: a polygon's outer ring, a multi-polygon's largest;
 * records with another geometry, their bbox.
 */
export const Footprints = FootprintsBytes;
export type Footprints = Uint8Array;

/**
 * Cloud cover of every match of a query WITHOUT its own `eo:cloud_cover` condition (the other
 * filters apply; paging and sort ignored): bin i counts [10 i, 10 (i + 1)) %, the last also
 * 100 %; records whose cloud cover is missing or unreadable are counted in `withoutCloud`.
 */
const count = z.number().int().min(0);
export const CloudHistogram = z
  .object({ bins: z.array(count).length(CLOUD_COVER_BINS), total: count, withoutCloud: count })
  .strict();
export type CloudHistogram = z.infer<typeof CloudHistogram>;

/** The full stored record (tolerant: unknown keys kept). */
export const CatalogRecordView = z.looseObject({ id: z.string() });
export type CatalogRecordView = z.infer<typeof CatalogRecordView>;

export const SavedSearch = z.object({
  id: z.string(),
  name: z.string(),
  query: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SavedSearch = z.infer<typeof SavedSearch>;

export const SavedSearchInput = z
  .object({
    /** Given: replace that saved search; absent: create one. */
    id: id.optional(),
    name: z.string().trim().min(1).max(200),
    query: CatalogSearchRequest,
  })
  .strict();
export type SavedSearchInput = z.input<typeof SavedSearchInput>;

export const catalogMethods = {
  'catalog.search': { input: CatalogQuery, output: CatalogPage },
  'catalog.footprints': { input: CatalogQuery, output: Footprints },
  'catalog.cloudHistogram': { input: CatalogQuery, output: CloudHistogram },
  'catalog.get': {
    input: z.object({ id }).strict(),
    output: CatalogRecordView.nullable(),
  },
  'savedSearches.list': { input: none, output: z.array(SavedSearch) },
  'savedSearches.save': { input: SavedSearchInput, output: SavedSearch },
  'savedSearches.remove': {
    input: z.object({ id }).strict(),
    output: z.object({ removed: z.boolean() }),
  },
} as const;
