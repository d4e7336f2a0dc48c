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
 */
import { z } from 'zod';
import type { EndpointDef } from './endpoints';
import { IdParam } from './requests/params';
import { Visualization } from './resources/aoi';
import { Delivery } from './resources/delivery';
import { Job } from './resources/job';

export const JobIdParams = z.strictObject({ job_id: IdParam });
export type JobIdParams = z.infer<typeof JobIdParams>;
export const DeliveryIdParams = z.strictObject({ delivery_id: IdParam });
export type DeliveryIdParams = z.infer<typeof DeliveryIdParams>;
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
} as const satisfies Record<string, EndpointDef>;

export type ExtensionEndpoints = typeof extensionEndpoints;
export type ExtensionEndpointId = keyof ExtensionEndpoints;
