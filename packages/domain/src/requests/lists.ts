/** Query and path parameters of the list endpoints (4.1, 4.2, 4.4, 4.6, 4.9, 4.14). */
import { z } from 'zod';
import { EXPRESSION_TYPES, INDEX_TYPES, ORDER_ITEM_STATUSES, ORDER_ITEM_TYPES } from '../enums';
import { LIMITS } from '../limits';
import { InstantRangeString, NumberRangeString } from '../time/schemas';
import { CsvIds, IdParam, csvEnum, limitParam, offsetParam } from './params';

/**
 * 4.1 GET /v0/order-items. Wire names are not shown by the spec; ours (one per label):
 * user id `user_id`, type `type`, status `status`, order ids `order_ids`, created by
 * `created_by`, created at range `created_at`, project ids `project_ids`, ids `ids`,
 * area range `area`, limit, offset. Lists are comma-separated; ranges use the interval
 * syntax (`A/B`, `../B`, `A/..`, or a single value).
 */
export const ListOrderItemsQuery = z.strictObject({
  user_id: IdParam.optional(),
  type: csvEnum(ORDER_ITEM_TYPES).optional(),
  status: csvEnum(ORDER_ITEM_STATUSES).optional(),
  order_ids: CsvIds.optional(),
  created_by: IdParam.optional(),
  created_at: InstantRangeString.optional(),
  project_ids: CsvIds.optional(),
  ids: CsvIds.optional(),
  area: NumberRangeString.optional(),
  limit: limitParam(LIMITS.openListDefaultLimit),
  offset: offsetParam(),
});
export type ListOrderItemsQuery = z.infer<typeof ListOrderItemsQuery>;

/** 4.2 GET /v0/aois/{aoi_id}/assets */
export const AoiIdParams = z.strictObject({ aoi_id: IdParam });
export const ListAoiAssetsQuery = z.strictObject({
  offset: offsetParam(),
  limit: limitParam(LIMITS.listDefaultLimit),
});
export type ListAoiAssetsQuery = z.infer<typeof ListAoiAssetsQuery>;

/**
 * 4.4 GET /v0/aois. `created_at` / `updated_at` format is not shown; ours is the interval
 * syntax of RFC 3339 instants (`2024-01-01T00:00:00Z/..`). `aoi_name` matches a
 * case-insensitive substring of the name.
 */
export const ListAoisQuery = z.strictObject({
  offset: offsetParam(),
  limit: limitParam(LIMITS.listDefaultLimit),
  created_at: InstantRangeString.optional(),
  updated_at: InstantRangeString.optional(),
  aoi_id: IdParam.optional(),
  aoi_name: z.string().min(1).max(200).optional(),
  project_ids: CsvIds.optional(),
});
export type ListAoisQuery = z.infer<typeof ListAoisQuery>;

/** 4.6 GET /v0/indices */
export const ListIndicesQuery = z.strictObject({
  offset: offsetParam(),
  limit: limitParam(LIMITS.listDefaultLimit),
  satellite_id: IdParam.optional(),
  type: z.enum(INDEX_TYPES).optional(),
  expression_type: z.enum(EXPRESSION_TYPES).optional(),
  index_id: IdParam.optional(),
});
export type ListIndicesQuery = z.infer<typeof ListIndicesQuery>;

/** 4.9 GET /v0/orders */
export const ListOrdersQuery = z.strictObject({
  user_id: IdParam.optional(),
  limit: limitParam(LIMITS.openListDefaultLimit),
  offset: offsetParam(),
});
export type ListOrdersQuery = z.infer<typeof ListOrdersQuery>;

/** 4.14 GET /v0/archives/collections/{cid}/items */
export const CollectionIdParams = z.strictObject({ cid: IdParam });
export const ListArchiveItemsQuery = z.strictObject({
  limit: limitParam(LIMITS.openListDefaultLimit),
  offset: offsetParam(),
});
export type ListArchiveItemsQuery = z.infer<typeof ListArchiveItemsQuery>;
