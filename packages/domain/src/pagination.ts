/** The two pagination shapes of spec 2.2, and the open one of catalog search (4.3). */
import { z } from 'zod';

const count = z.number().int().min(0);

/** limit, offset, total: order items, orders, AOIs, assets, indices. */
export const OffsetPagination = z.looseObject({ limit: count, offset: count, total: count });
export type OffsetPagination = z.infer<typeof OffsetPagination>;

/** limit, skip, total: satellite image search. */
export const SkipPagination = z.looseObject({ limit: count, skip: count, total: count });
export type SkipPagination = z.infer<typeof SkipPagination>;

/**
 * Catalog search pagination: shape not shown by the spec. Our service answers offset-based;
 * a client accepts either shape, or any object (next links, cursors), and must not assume.
 */
export const CatalogSearchPagination = z.union([
  OffsetPagination,
  SkipPagination,
  z.looseObject({ limit: count.optional(), total: count.optional() }),
]);
export type CatalogSearchPagination = z.infer<typeof CatalogSearchPagination>;
