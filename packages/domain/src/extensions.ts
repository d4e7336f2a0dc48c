/**
 * EXTENSIONS: endpoints our service adds beyond the spec. They are NOT part of the spec's
 * endpoint table (`endpoints.ts`) and another service may not offer them; clients must treat
 * a 404 from them as "not supported" and fall back to what the spec allows.
 *
 * - `GET /v0/jobs/{job_id}`: the spec has no way to read a job after creating it (4.13 only
 *   returns the Job once). The desktop shows job status and progress, so our service lets a
 *   client re-read a job of its organisation. Same Job shape as the create response (2.13).
 */
import { z } from 'zod';
import type { EndpointDef } from './endpoints';
import { IdParam } from './requests/params';
import { Job } from './resources/job';

export const JobIdParams = z.strictObject({ job_id: IdParam });
export type JobIdParams = z.infer<typeof JobIdParams>;

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
} as const satisfies Record<string, EndpointDef>;

export type ExtensionEndpoints = typeof extensionEndpoints;
export type ExtensionEndpointId = keyof ExtensionEndpoints;
