/**
 * The provider's operations a field team needs (`@eo/domain` field-operations.ts), at the same
 * paths and in the same shapes on both services (ours serves them as extensions), so one set of
 * methods reads both profiles. Each resolves to `null` on a 404 ("this service has no such
 * operation", or "no such record"); lists come back whole (entries without an id are skipped,
 * a body without its list key is an `EoResponseError`, like every list).
 *
 * - `ping`: the connectivity check; `true` when the service answered.
 * - `listDeliveries` (made anywhere; `target_path` says where the data landed), filtered by any
 *   of delivery, catalog record, task or order item.
 * - `listWorkflowJobs` / `getWorkflowJob`: a workflow's jobs; one job with its tasks' results.
 * - `estimateWorkflowCost`: credits before a paid job (`project_id` is ours, see the domain).
 * - `listStores`: where deliveries can land (`storePathProblem` checks a path against one).
 * - `listVisualizations`: an AOI's visualizations, every page (offset paged, bounded).
 * - `listArchiveCollections`, `searchArchive` (one page of the cross-collection search).
 * - `getAoi`, `getOrderItem`: one record, to refresh it after an action.
 * - `downloadJob`, `downloadTask` (PUT): a job's or one task's results packaged behind a signed
 *   URL; `in_progress` without a URL until ready (ask again; PUT is idempotent).
 */
import {
  fieldOperationEndpoints as ops,
  formatIssuePath,
  type Aoi,
  type ArchiveCollection,
  type ArchiveFeatureCollection,
  type ArchiveSearchRequest,
  type Delivery,
  type Job,
  type JobDownload,
  type ListDeliveriesQuery,
  type ListWorkflowJobsQuery,
  type OrderItem,
  type Store,
  type TaskDownload,
  type Visualization,
  type WorkflowCostEstimate,
} from '@eo/domain';
import type { z } from 'zod';
import { EoResponseError, EoValidationError } from './errors';
import type { ExtensionRead } from './extension-read';
import type { CallOptions } from './options';
import { encodeQuery } from './request';

export interface FieldOperations {
  /** `GET /ping`: true when the service answers; null when it has no ping (404). */
  ping(options?: CallOptions): Promise<true | null>;
  listDeliveries(filter?: ListDeliveriesQuery, options?: CallOptions): Promise<Delivery[] | null>;
  listWorkflowJobs(
    workflowId: string,
    filter?: ListWorkflowJobsQuery,
    options?: CallOptions,
  ): Promise<Job[] | null>;
  getWorkflowJob(workflowId: string, jobId: string, options?: CallOptions): Promise<Job | null>;
  estimateWorkflowCost(
    workflowId: string,
    filter?: { readonly project_id?: string },
    options?: CallOptions,
  ): Promise<WorkflowCostEstimate | null>;
  listStores(options?: CallOptions): Promise<Store[] | null>;
  listVisualizations(
    aoiId: string,
    filter?: { readonly index_id?: string; readonly visualization_id?: string },
    options?: CallOptions,
  ): Promise<Visualization[] | null>;
  listArchiveCollections(
    ids?: readonly string[],
    options?: CallOptions,
  ): Promise<ArchiveCollection[] | null>;
  searchArchive(
    request: z.input<typeof ops.searchArchive.body>,
    options?: CallOptions,
  ): Promise<ArchiveFeatureCollection | null>;
  getAoi(aoiId: string, options?: CallOptions): Promise<Aoi | null>;
  getOrderItem(id: string, options?: CallOptions): Promise<OrderItem | null>;
  /** `PUT .../jobs/{job_id}/download`: the job's results as a package (null: not offered). */
  downloadJob(
    workflowId: string,
    jobId: string,
    options?: CallOptions,
  ): Promise<JobDownload | null>;
  /** `PUT .../jobs/{job_id}/tasks/{task_id}/download`: one task's results as a package. */
  downloadTask(
    workflowId: string,
    jobId: string,
    taskId: string,
    options?: CallOptions,
  ): Promise<TaskDownload | null>;
}

/** Enough for any AOI's visualizations; a service that ignores paging cannot loop us forever. */
const MAX_PAGES = 100;
const VISUALIZATION_PAGE = 100;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Only the filters given, as strings. */
function defined(filter: object | undefined): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(filter ?? {})) if (v !== undefined) out[k] = String(v);
  return Object.keys(out).length > 0 ? out : undefined;
}

export function makeFieldOperations(read: ExtensionRead): FieldOperations {
  /** `body[key]` as a list of records with a string `idField`; envelope breakage throws. */
  function entries<T>(
    body: unknown,
    key: string,
    idField: string,
    where: { endpoint: keyof typeof ops; path: string },
  ): T[] {
    const list = isRecord(body) ? body[key] : undefined;
    if (!Array.isArray(list)) {
      throw new EoResponseError({
        endpoint: where.endpoint,
        method: 'GET',
        path: where.path,
        status: 200,
        message: `GET ${where.path}: unusable response: "${key}" ${list === undefined ? 'is missing' : 'is not a list'}`,
        issues: [{ path: key, message: 'expected a list' }],
      });
    }
    return list.filter(
      (r) => isRecord(r) && typeof r[idField] === 'string' && r[idField] !== '',
    ) as T[];
  }

  async function list<T>(
    id: 'listDeliveries' | 'listWorkflowJobs' | 'listStores' | 'listArchiveCollections',
    params: Record<string, string>,
    query: Record<string, string> | undefined,
    key: string,
    idField: string,
    options: CallOptions | undefined,
  ): Promise<T[] | null> {
    const body = await read(id, ops[id], params, query, undefined, options);
    if (body === null) return null;
    return entries<T>(body, key, idField, {
      endpoint: id,
      path: ops[id].path + encodeQuery(query),
    });
  }

  const one = async <T>(
    id:
      | 'getWorkflowJob'
      | 'estimateWorkflowCost'
      | 'getAoi'
      | 'getOrderItem'
      | 'downloadJob'
      | 'downloadTask',
    params: Record<string, string>,
    query: Record<string, string> | undefined,
    options: CallOptions | undefined,
  ) => (await read(id, ops[id], params, query, undefined, options)) as T | null;

  return {
    ping: async (options) =>
      (await read('ping', ops.ping, {}, undefined, undefined, options)) === null ? null : true,
    listDeliveries: (filter, options) =>
      list<Delivery>('listDeliveries', {}, defined(filter), 'deliveries', 'delivery_id', options),
    listWorkflowJobs: (workflowId, filter, options) =>
      list<Job>(
        'listWorkflowJobs',
        { workflow_id: workflowId },
        defined(filter),
        'jobs',
        'id',
        options,
      ),
    getWorkflowJob: (workflowId, jobId, options) =>
      one<Job>('getWorkflowJob', { workflow_id: workflowId, job_id: jobId }, undefined, options),
    estimateWorkflowCost: (workflowId, filter, options) =>
      one<WorkflowCostEstimate>(
        'estimateWorkflowCost',
        { workflow_id: workflowId },
        defined(filter),
        options,
      ),
    listStores: (options) => list<Store>('listStores', {}, undefined, 'stores', 'id', options),
    async listVisualizations(aoiId, filter, options) {
      const byId = new Map<string, Visualization>();
      const params = { aoi_id: aoiId };
      for (let page = 0; page < MAX_PAGES; page++) {
        const query = {
          ...defined(filter),
          offset: String(byId.size),
          limit: String(VISUALIZATION_PAGE),
        };
        const def = ops.listVisualizations;
        const body = await read('listVisualizations', def, params, query, undefined, options);
        if (body === null) return page === 0 ? null : [...byId.values()];
        const path = def.path.replace(':aoi_id', encodeURIComponent(aoiId)) + encodeQuery(query);
        const rows = entries<Visualization>(body, 'visualization', 'id', {
          endpoint: 'listVisualizations',
          path,
        });
        const before = byId.size;
        for (const v of rows) if (!byId.has(v.id)) byId.set(v.id, v);
        const pagination = isRecord(body) && isRecord(body.pagination) ? body.pagination : {};
        const total = typeof pagination.total === 'number' ? pagination.total : null;
        const ended = rows.length < VISUALIZATION_PAGE || byId.size === before;
        if (ended || (total !== null && byId.size >= total)) break;
      }
      return [...byId.values()];
    },
    listArchiveCollections: (ids, options) =>
      list<ArchiveCollection>(
        'listArchiveCollections',
        {},
        ids && ids.length > 0 ? { ids: ids.join(',') } : undefined,
        'collections',
        'id',
        options,
      ),
    async searchArchive(request, options) {
      const checked = ops.searchArchive.body.safeParse(request);
      if (!checked.success) {
        const details = checked.error.issues.map((i) => ({
          path: formatIssuePath(i.path),
          message: i.message,
          in: 'body' as const,
        }));
        throw new EoValidationError({
          message: `Invalid body for searchArchive: ${details[0]!.path}: ${details[0]!.message}`,
          endpoint: 'searchArchive',
          method: 'POST',
          details,
          attempts: 0,
        });
      }
      const body: ArchiveSearchRequest = checked.data;
      const def = ops.searchArchive;
      return (await read(
        'searchArchive',
        def,
        {},
        undefined,
        body,
        options,
      )) as ArchiveFeatureCollection | null;
    },
    getAoi: (aoiId, options) => one<Aoi>('getAoi', { aoi_id: aoiId }, undefined, options),
    getOrderItem: (id, options) => one<OrderItem>('getOrderItem', { id }, undefined, options),
    downloadJob: (workflowId, jobId, options) =>
      one<JobDownload>(
        'downloadJob',
        { workflow_id: workflowId, job_id: jobId },
        undefined,
        options,
      ),
    downloadTask: (workflowId, jobId, taskId, options) =>
      one<TaskDownload>(
        'downloadTask',
        { workflow_id: workflowId, job_id: jobId, task_id: taskId },
        undefined,
        options,
      ),
  };
}
