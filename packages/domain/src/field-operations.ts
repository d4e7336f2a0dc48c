/**
 * The provider's operations a field team needs beyond our spec (`real-service/openapi.json`),
 * at its paths and in its shapes. Our reference service serves every one of them as a documented
 * extension (`extensions.ts`; packages/reference-service/docs/choices-field-operations.md), so one client reads
 * both services:
 *
 * - `GET /ping`: the connectivity check (a JSON string).
 * - `GET /v0/catalogs/deliveries`: deliveries made anywhere (the web app, another client),
 *   filtered by delivery, catalog record, task or order item; `target_path` says where the data
 *   landed. No paging in the provider's document: one answer is the whole list.
 * - `GET /v0/workflows/{workflow_id}/jobs` and `.../jobs/{job_id}`: a workflow's jobs, and one
 *   job with its tasks (each task's `result`, `state_msg`, `err_msg`).
 * - `GET /v0/workflows/{workflow_id}/estimate`: a workflow's cost in credits before a paid job.
 * - `GET /v0/stores`: the organisation's delivery stores; a delivery's `cloud_info.config` is a
 *   store id (`clerk.CloudDelivery`), and its type (S3, GCS, AZBLOB) says which URL scheme a
 *   delivery path may carry (`storePathProblem`).
 * - `GET /v0/aois/{aoi_id}/visualizations`: an AOI's visualizations, offset paged, under the
 *   list key `visualization` (singular, as the provider writes it).
 * - `GET /v0/archives/collections` and `POST /v0/archives/search`: the archive's collections and
 *   a search across them (STAC API item search: collections, ids, bbox, intersects, datetime).
 * - `GET /v0/aoi/{aoi_id}` and `GET /v0/order-items/{id}`: one record, to refresh it after an
 *   action (the provider's singular `aoi` path is its own).
 * - `PUT /v0/workflows/{workflow_id}/jobs/{job_id}/download` and
 *   `.../jobs/{job_id}/tasks/{task_id}/download`: a job's (or one task's) results packaged
 *   behind a signed URL; PUT, asked again until the package is ready (`downloadStatusOf`).
 *
 * Responses are loose (either service's extra fields are kept); queries are strict where our
 * service validates them, and list only the provider's parameters (plus `project_id` on the
 * estimate, which the provider does not document and may ignore).
 */
import { z } from 'zod';
import type { EndpointDef } from './endpoints';
import { GeometryInput } from './geometry';
import { LIMITS } from './limits';
import { OffsetPagination } from './pagination';
import { CsvIds, IdParam, limitParam, offsetParam } from './requests/params';
import { Aoi, Visualization } from './resources/aoi';
import { ArchiveFeatureCollection } from './resources/catalog';
import { Job } from './resources/job';
import { OrderItem } from './resources/order';
import { DeliveryList } from './responses';
import { InstantRangeString } from './time/schemas';

const text = z.string().nullish();

export const WorkflowIdOnlyParams = z.strictObject({ workflow_id: IdParam });
export const WorkflowJobParams = z.strictObject({ workflow_id: IdParam, job_id: IdParam });
export type WorkflowJobParams = z.infer<typeof WorkflowJobParams>;
export const SingleAoiParams = z.strictObject({ aoi_id: IdParam });
export const OrderItemIdParams = z.strictObject({ id: IdParam });
export const WorkflowJobTaskParams = z.strictObject({
  workflow_id: IdParam,
  job_id: IdParam,
  task_id: IdParam,
});
export type WorkflowJobTaskParams = z.infer<typeof WorkflowJobTaskParams>;

/**
 * `dexter.PutJobUpstreamResponseBody`: a job's download package. `status` as the provider's
 * downloads write it (`downloadStatusOf` reads any case); `signed_url` once it is ready. The
 * provider writes the workflow as `workflowId` here.
 */
export const JobDownload = z.looseObject({
  id: z.string().min(1),
  status: z.string(),
  signed_url: text,
  workflowId: text,
});
export type JobDownload = z.infer<typeof JobDownload>;

/** `dexter.PutTaskUpstreamResponseBody`: one task's download package. */
export const TaskDownload = z.looseObject({
  id: z.string().min(1),
  job_id: text,
  workflow_id: text,
  status: z.string(),
  signed_url: text,
});
export type TaskDownload = z.infer<typeof TaskDownload>;

/** `GET /v0/catalogs/deliveries` filters (`clerk` ListDeliveries): each one id. */
export const ListDeliveriesQuery = z.strictObject({
  delivery_id: IdParam.optional(),
  catalog_id: IdParam.optional(),
  task_id: IdParam.optional(),
  order_item_id: IdParam.optional(),
});
export type ListDeliveriesQuery = z.infer<typeof ListDeliveriesQuery>;

/** `GET /v0/workflows/{workflow_id}/jobs` filters (`created_on`: an instant or an interval). */
export const ListWorkflowJobsQuery = z.strictObject({
  id: IdParam.optional(),
  status: z.string().min(1).max(40).optional(),
  created_by: IdParam.optional(),
  created_on: InstantRangeString.optional(),
});
export type ListWorkflowJobsQuery = z.infer<typeof ListWorkflowJobsQuery>;

/** `dexter.ListJobsTransformerResponse`: jobs without their tasks (read one job for those). */
export const JobList = z.looseObject({ jobs: z.array(Job) });
export type JobList = z.infer<typeof JobList>;

/** Our service prices a job over a project's AOIs; the provider's estimate has no parameter. */
export const WorkflowEstimateQuery = z.strictObject({ project_id: IdParam.optional() });
export const WorkflowCostEstimate = z.looseObject({
  /** Credits the job is expected to cost. */
  estimated_cost: z.number().int().nonnegative(),
});
export type WorkflowCostEstimate = z.infer<typeof WorkflowCostEstimate>;

/** `domain.BucketType`. */
export const STORE_TYPES = ['S3', 'GCS', 'AZBLOB'] as const;
export type StoreType = (typeof STORE_TYPES)[number];
/** The URL scheme a delivery path into a store of each type may carry (`parseCloudPath`). */
export const STORE_PATH_SCHEMES: Readonly<Record<StoreType, string>> = {
  S3: 's3',
  GCS: 'gs',
  AZBLOB: 'az',
};

/** `domain.Store`: where deliveries land. Secrets are never listed. */
export const Store = z.looseObject({
  id: z.string().min(1),
  name: text,
  /** S3, GCS or AZBLOB; another value is kept (the provider may add types). */
  type: text,
  configs: z.looseObject({ bucket: text, region: text, path_prefix: text }).nullish(),
  labels: z.record(z.string(), z.string()).nullish(),
  created_at: text,
  updated_at: text,
  created_by: text,
});
export type Store = z.infer<typeof Store>;
export const StoreList = z.looseObject({ stores: z.array(Store) });
export type StoreList = z.infer<typeof StoreList>;

/**
 * Why a delivery path does not fit the chosen store, or null. A relative path fits any store (it
 * lands under the store's bucket and prefix); a URL must carry the store type's scheme. An
 * unknown store type is not judged here: the service decides.
 */
export function storePathProblem(store: Pick<Store, 'type' | 'name' | 'id'>, path: string) {
  const type = (store.type ?? '').toUpperCase() as StoreType;
  const want = STORE_PATH_SCHEMES[type] as string | undefined;
  const m = /^([a-z][a-z0-9+.-]*):\/\//i.exec(path.trim());
  if (!want || !m) return null;
  const scheme = m[1]!.toLowerCase();
  if (scheme === want) return null;
  return `${store.name ?? store.id} is a ${type} store: a path URL must start with ${want}:// (or be a relative folder), not ${scheme}://`;
}

/** `GET /v0/aois/{aoi_id}/visualizations` (`atlas` ListVisualizations). */
export const ListVisualizationsQuery = z.strictObject({
  offset: offsetParam(),
  limit: limitParam(LIMITS.listDefaultLimit),
  index_id: IdParam.optional(),
  visualization_id: IdParam.optional(),
});
export type ListVisualizationsQuery = z.infer<typeof ListVisualizationsQuery>;

/** The list key is `visualization` (singular), as the provider writes it. */
export const VisualizationList = z.looseObject({
  visualization: z.array(Visualization),
  pagination: OffsetPagination.nullish(),
});
export type VisualizationList = z.infer<typeof VisualizationList>;

/** `GET /v0/archives/collections?ids=a,b`. */
export const ListArchiveCollectionsQuery = z.strictObject({ ids: CsvIds.optional() });

/** `cosmos.originalCollectionSuccessResponse`: a STAC Collection. */
export const ArchiveCollection = z.looseObject({
  id: z.string().min(1),
  title: text,
  description: text,
  license: text,
  type: text,
  stac_version: text,
  extent: z
    .looseObject({
      spatial: z.looseObject({ bbox: z.array(z.array(z.number())).nullish() }).nullish(),
      temporal: z
        .looseObject({ interval: z.array(z.array(z.string().nullable())).nullish() })
        .nullish(),
    })
    .nullish(),
  created_at: text,
  updated_at: text,
});
export type ArchiveCollection = z.infer<typeof ArchiveCollection>;
export const ArchiveCollectionList = z.looseObject({ collections: z.array(ArchiveCollection) });
export type ArchiveCollectionList = z.infer<typeof ArchiveCollectionList>;

const Bbox = z
  .array(z.number().finite())
  .length(4, 'bbox is [west, south, east, north]')
  .refine((b) => b[1]! <= b[3]!, 'bbox south must not be above north')
  // A box across the antimeridian (west > east) is two searches, one each side.
  .refine((b) => b[0]! <= b[2]!, 'bbox west must not be east of east: split it at 180°');

/** `cosmos.Search`: STAC API item search across collections, offset paged. */
export const ArchiveSearchRequest = z.strictObject({
  collections: z.array(IdParam).max(100).optional(),
  ids: z.array(IdParam).max(LIMITS.maxLimit).optional(),
  bbox: Bbox.optional(),
  intersects: GeometryInput.optional(),
  datetime: InstantRangeString.optional(),
  limit: z.number().int().min(1).max(LIMITS.maxLimit).default(10),
  offset: z.number().int().min(0).max(LIMITS.maxOffset).default(0),
});
export type ArchiveSearchRequest = z.infer<typeof ArchiveSearchRequest>;

export const fieldOperationEndpoints = {
  ping: {
    method: 'GET',
    path: '/ping',
    kind: 'read',
    status: 200,
    summary: "Connectivity check (extension: the real service's /ping)",
    response: z.string(),
  },
  listDeliveries: {
    method: 'GET',
    path: '/v0/catalogs/deliveries',
    kind: 'read',
    status: 200,
    summary:
      "List deliveries, by delivery, catalog, task or order item (extension: the real service's read)",
    query: ListDeliveriesQuery,
    response: DeliveryList,
  },
  listWorkflowJobs: {
    method: 'GET',
    path: '/v0/workflows/:workflow_id/jobs',
    kind: 'read',
    status: 200,
    summary: "List the jobs of a workflow (extension: the real service's read)",
    params: WorkflowIdOnlyParams,
    query: ListWorkflowJobsQuery,
    response: JobList,
  },
  getWorkflowJob: {
    method: 'GET',
    path: '/v0/workflows/:workflow_id/jobs/:job_id',
    kind: 'read',
    status: 200,
    summary: "Read a job of a workflow with its tasks (extension: the real service's read)",
    params: WorkflowJobParams,
    response: Job,
  },
  estimateWorkflowCost: {
    method: 'GET',
    path: '/v0/workflows/:workflow_id/estimate',
    kind: 'read',
    status: 200,
    summary: "A workflow's cost in credits (extension: the real service's estimate)",
    params: WorkflowIdOnlyParams,
    query: WorkflowEstimateQuery,
    response: WorkflowCostEstimate,
  },
  listStores: {
    method: 'GET',
    path: '/v0/stores',
    kind: 'read',
    status: 200,
    summary: "List delivery stores (extension: the real service's read)",
    response: StoreList,
  },
  listVisualizations: {
    method: 'GET',
    path: '/v0/aois/:aoi_id/visualizations',
    kind: 'read',
    status: 200,
    summary: "List the visualizations of an AOI (extension: the real service's read)",
    params: SingleAoiParams,
    query: ListVisualizationsQuery,
    response: VisualizationList,
  },
  listArchiveCollections: {
    method: 'GET',
    path: '/v0/archives/collections',
    kind: 'read',
    status: 200,
    summary: "List archive collections (extension: the real service's read)",
    query: ListArchiveCollectionsQuery,
    response: ArchiveCollectionList,
  },
  searchArchive: {
    method: 'POST',
    path: '/v0/archives/search',
    kind: 'search',
    status: 200,
    summary: "Search archive items across collections (extension: the real service's search)",
    body: ArchiveSearchRequest,
    response: ArchiveFeatureCollection,
  },
  getAoi: {
    method: 'GET',
    path: '/v0/aoi/:aoi_id',
    kind: 'read',
    status: 200,
    summary: "Read an AOI (extension: the real service's read)",
    params: SingleAoiParams,
    response: Aoi,
  },
  getOrderItem: {
    method: 'GET',
    path: '/v0/order-items/:id',
    kind: 'read',
    status: 200,
    summary: "Read an order item (extension: the real service's read)",
    params: OrderItemIdParams,
    response: OrderItem,
  },
  downloadJob: {
    method: 'PUT',
    path: '/v0/workflows/:workflow_id/jobs/:job_id/download',
    kind: 'prepare',
    status: 200,
    summary: "Package a job's results behind a signed URL (extension: the real service's PUT)",
    params: WorkflowJobParams,
    response: JobDownload,
  },
  downloadTask: {
    method: 'PUT',
    path: '/v0/workflows/:workflow_id/jobs/:job_id/tasks/:task_id/download',
    kind: 'prepare',
    status: 200,
    summary: "Package one task's results behind a signed URL (extension: the real service's PUT)",
    params: WorkflowJobTaskParams,
    response: TaskDownload,
  },
} as const satisfies Record<string, EndpointDef>;
