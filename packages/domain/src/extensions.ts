/**
 * EXTENSIONS: endpoints our service adds beyond the spec. They are NOT part of the spec's
 * endpoint table (`endpoints.ts`) and another service may not offer them; clients must treat
 * a 404 from them as "not supported" and fall back to what the spec allows.
 *
 * - `GET /v0/jobs/{job_id}`: the spec has no way to read a job after creating it (4.13 only
 *   returns the Job once). The desktop shows job status and progress, so our service lets a
 *   client re-read a job of its organisation. Same Job shape as the create response (2.13).
 * - `GET /v0/catalogs/deliveries/{delivery_id}`: 3.1 says a delivery's outcome "is read from the
 *   status field of the delivery record", but no endpoint reads one. Same Delivery shape (2.12).
 * - `GET /v0/aois/{aoi_id}/visualizations/{visualization_id}`: a visualization's status and
 *   progress (2.8) after its creation. Same Visualization shape, with its assets. Without it a
 *   client can still follow one through the AOI's asset list (assets carry visualization_id).
 * - `GET /v0/orders/{order_id}`: an order's payment status after its creation (4.9 lists orders
 *   with no filter by id). Same Order shape as the create response, with its items. The
 *   provider's real service has this read at the same path; without it a client still follows
 *   the items through 4.1's list filtered by order ids.
 * - `GET /v0/projects`, `GET /v0/bandsets`, `GET /v0/satellites`, `GET /v0/workflows`: the ids a
 *   create needs (project, bandset, satellite and its bands, workflow) are listed nowhere in the
 *   spec, so forms could only guess them. The provider's real service has these four reads; ours
 *   offers them at the same paths, with the same query parameters and response shapes
 *   (`reference.ts`), so one client reads both.
 * - The provider's downloads (`downloads.ts`): `POST /v0/catalogs/download`,
 *   `GET /v0/catalogs/download/{download_id}`, `POST /v0/aois/{aoi_id}/downloads`,
 *   `GET /v0/aois/{aoi_id}/downloads/{download_id}`, at its paths and in its shapes: a signed URL
 *   to a scene's Cloud-Optimized GeoTIFF once the download is ready. Two of them are creates
 *   (idempotent like the spec's creates).
 * - The provider's operations a field team needs (`field-operations.ts`): `/ping`, the
 *   deliveries list, a workflow's jobs, one job, the cost estimate, stores, an AOI's
 *   visualizations, archive collections and the cross-collection search, one AOI, one order
 *   item; at its paths and in its shapes.
 */
import { z } from 'zod';
import { downloadEndpoints } from './downloads';
import { fieldOperationEndpoints } from './field-operations';
import type { EndpointDef } from './endpoints';
import { IdParam } from './requests/params';
import { Visualization } from './resources/aoi';
import { Delivery } from './resources/delivery';
import { Job } from './resources/job';
import { Order } from './resources/order';
import {
  BandsetList,
  ListProjectsQuery,
  ListWorkflowsQuery,
  ProjectList,
  SatelliteList,
  WorkflowList,
} from './reference';

export const JobIdParams = z.strictObject({ job_id: IdParam });
export type JobIdParams = z.infer<typeof JobIdParams>;
export const DeliveryIdParams = z.strictObject({ delivery_id: IdParam });
export type DeliveryIdParams = z.infer<typeof DeliveryIdParams>;
export const OrderIdParams = z.strictObject({ order_id: IdParam });
export type OrderIdParams = z.infer<typeof OrderIdParams>;
export const VisualizationIdParams = z.strictObject({ aoi_id: IdParam, visualization_id: IdParam });
export type VisualizationIdParams = z.infer<typeof VisualizationIdParams>;

export const extensionEndpoints = {
  getJob: {
    method: 'GET',
    path: '/v0/jobs/:job_id',
    kind: 'read',
    status: 200,
    summary: 'Read a job (extension: not in the spec)',
    params: JobIdParams,
    response: Job,
  },
  getDelivery: {
    method: 'GET',
    path: '/v0/catalogs/deliveries/:delivery_id',
    kind: 'read',
    status: 200,
    summary: 'Read a delivery (extension: not in the spec)',
    params: DeliveryIdParams,
    response: Delivery,
  },
  getVisualization: {
    method: 'GET',
    path: '/v0/aois/:aoi_id/visualizations/:visualization_id',
    kind: 'read',
    status: 200,
    summary: 'Read a visualization (extension: not in the spec)',
    params: VisualizationIdParams,
    response: Visualization,
  },
  getOrder: {
    method: 'GET',
    path: '/v0/orders/:order_id',
    kind: 'read',
    status: 200,
    summary: "Read an order with its items (extension: the real service's read)",
    params: OrderIdParams,
    response: Order,
  },
  listProjects: {
    method: 'GET',
    path: '/v0/projects',
    kind: 'read',
    status: 200,
    summary: "List the organisation's projects (extension: the real service's read)",
    query: ListProjectsQuery,
    response: ProjectList,
  },
  listBandsets: {
    method: 'GET',
    path: '/v0/bandsets',
    kind: 'read',
    status: 200,
    summary: "List bandsets (extension: the real service's read)",
    response: BandsetList,
  },
  listSatellites: {
    method: 'GET',
    path: '/v0/satellites',
    kind: 'read',
    status: 200,
    summary: "List satellites and their bands (extension: the real service's read)",
    response: SatelliteList,
  },
  listWorkflows: {
    method: 'GET',
    path: '/v0/workflows',
    kind: 'read',
    status: 200,
    summary: "List workflows (extension: the real service's read)",
    query: ListWorkflowsQuery,
    response: WorkflowList,
  },
  ...downloadEndpoints,
  ...fieldOperationEndpoints,
} as const satisfies Record<string, EndpointDef>;

export type ExtensionEndpoints = typeof extensionEndpoints;
export type ExtensionEndpointId = keyof ExtensionEndpoints;
