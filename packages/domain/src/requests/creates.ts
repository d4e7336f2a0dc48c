/** Request bodies of the other create endpoints (4.7, 4.10, 4.11, 4.12, 4.13). */
import { z } from 'zod';
import { EXPRESSION_TYPES, INDEX_TYPES } from '../enums';
import { AreaGeometryInput } from '../geometry';
import { LIMITS } from '../limits';
import { CloudDeliveryInput } from './orders';
import { IdParam } from './params';

/** 4.7 POST /v0/indices: every field required. The expression is checked by `parseExpression`. */
export const CreateIndexRequest = z.strictObject({
  name: z.string().trim().min(1, 'name is required').max(100),
  description: z.string().max(2000),
  rescale: z
    .array(z.number().int('rescale values are integers'))
    .min(1, 'rescale needs at least one value')
    .max(8),
  expression: z.string().trim().min(1, 'expression is required').max(2000),
  colormap: z.string().min(1, 'colormap is required').max(100),
  satellite_id: z.string().min(1, 'satellite_id is required'),
  expression_type: z.enum(EXPRESSION_TYPES),
  type: z.enum(INDEX_TYPES),
});
export type CreateIndexRequest = z.infer<typeof CreateIndexRequest>;

/** 4.10 POST /v0/aois/{aoi_id}/visualizations: both required. */
export const CreateVisualizationRequest = z.strictObject({
  index_id: z.string().min(1, 'index_id is required'),
  src_asset_ids: z
    .array(z.string().min(1))
    .min(1, 'src_asset_ids needs at least one asset id')
    .max(LIMITS.maxIdsPerFilter),
});
export type CreateVisualizationRequest = z.infer<typeof CreateVisualizationRequest>;

/**
 * 4.11 POST /v0/catalogs/deliveries. Required fields are not shown; ours: `cloud_info`, and
 * exactly one of `catalog_ids` / `order_item_ids` (non-empty) per delivery request.
 */
export const DeliveryRequestInput = z
  .strictObject({
    catalog_ids: z.array(z.string().min(1)).max(LIMITS.maxIdsPerFilter).optional(),
    order_item_ids: z.array(z.string().min(1)).max(LIMITS.maxIdsPerFilter).optional(),
    cloud_info: CloudDeliveryInput,
  })
  .superRefine((d, ctx) => {
    const hasCatalogs = (d.catalog_ids?.length ?? 0) > 0;
    const hasItems = (d.order_item_ids?.length ?? 0) > 0;
    if (hasCatalogs === hasItems) {
      ctx.addIssue({
        code: 'custom',
        path: hasCatalogs ? ['order_item_ids'] : ['catalog_ids'],
        message: hasCatalogs
          ? 'give catalog_ids or order_item_ids, not both'
          : 'give exactly one of catalog_ids or order_item_ids (non-empty)',
      });
    }
  });
export type DeliveryRequestInput = z.infer<typeof DeliveryRequestInput>;

export const CreateDeliveriesRequest = z.strictObject({
  deliveries: z
    .array(DeliveryRequestInput)
    .min(1, 'deliveries needs at least one delivery request')
    .max(LIMITS.maxDeliveries, `at most ${LIMITS.maxDeliveries} delivery requests`),
});
export type CreateDeliveriesRequest = z.infer<typeof CreateDeliveriesRequest>;

/** 4.12 POST /v0/aois: every field required. */
export const CreateAoiRequest = z.strictObject({
  name: z.string().trim().min(1, 'name is required').max(200),
  description: z.string().max(2000),
  satellite_id: z.string().min(1, 'satellite_id is required'),
  provider: z.string().min(1, 'provider is required'),
  project_id: z.string().min(1, 'project_id is required'),
  geometry: AreaGeometryInput,
  item_ids: z
    .array(z.string().min(1))
    .min(1, 'item_ids needs at least one archive item id')
    .max(LIMITS.maxIdsPerFilter),
});
export type CreateAoiRequest = z.infer<typeof CreateAoiRequest>;

/** 4.13 POST /v0/workflows/{workflow_id}/jobs?project_id=...: no body (an empty object is tolerated). */
export const WorkflowIdParams = z.strictObject({ workflow_id: IdParam });
export const CreateJobQuery = z.strictObject({
  project_id: z.string().min(1, 'project_id is required'),
});
export const CreateJobBody = z.strictObject({}).optional();
export type CreateJobQuery = z.infer<typeof CreateJobQuery>;

/**
 * A create whose endpoint takes an id in its path, as one object: the path parameter travels
 * with the body (a queued create is stored and validated whole before it is sent).
 */
export const CreateVisualizationCall = CreateVisualizationRequest.extend({
  aoi_id: z.string().min(1, 'aoi_id is required'),
});
export type CreateVisualizationCall = z.infer<typeof CreateVisualizationCall>;
export const CreateJobCall = CreateJobQuery.extend({
  workflow_id: z.string().min(1, 'workflow_id is required'),
});
export type CreateJobCall = z.infer<typeof CreateJobCall>;
