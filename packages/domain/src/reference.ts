/**
 * Reference lists: the projects, bandsets, satellites (with their bands) and workflows a form
 * offers as choices. Our spec has no read for them; the provider's real service has
 * (`real-service/openapi.json`: `GET /v0/projects`, `/v0/bandsets`, `/v0/satellites`,
 * `/v0/workflows`), and our reference service offers the same reads, at the same paths and in
 * the same shapes, as documented extensions (`extensions.ts`).
 *
 * Responses are read tolerantly (a client reads them from either service): only the list key
 * and each entry's `id` are required; unknown fields pass through.
 */
import { z } from 'zod';
import { LIMITS } from './limits';
import { OffsetPagination } from './pagination';
import { boundedIntParam, IdParam, limitParam, offsetParam } from './requests/params';

const text = z.string().nullish();
const num = z.number().nullish();

/** `GET /v0/projects` (real service: `frontier.listProjects`), paged by page number and size. */
export const ListProjectsQuery = z.strictObject({
  page_num: boundedIntParam('page_num', 1, LIMITS.maxOffset, 1),
  page_size: boundedIntParam('page_size', 1, LIMITS.maxLimit, 50),
});
export type ListProjectsQuery = z.infer<typeof ListProjectsQuery>;

export const ProjectSummary = z.looseObject({
  id: z.string().min(1),
  /** The project's slug. */
  name: text,
  /** The project's display name. */
  title: text,
  org_id: text,
  members_count: num,
  created_at: text,
  updated_at: text,
});
export type ProjectSummary = z.infer<typeof ProjectSummary>;

export const ProjectList = z.looseObject({
  /** Total number of projects (for paging). */
  count: z.number().int().min(0).nullish(),
  projects: z.array(ProjectSummary),
});
export type ProjectList = z.infer<typeof ProjectList>;

const BandSummary = z.looseObject({ name: z.string().min(1), wavelength: num });

/** `GET /v0/bandsets` (real service: `clerk.ListBandsets`): one answer, no paging. */
export const BandsetSummary = z.looseObject({
  id: z.string().min(1),
  name: text,
  description: text,
  captures: num,
  bands: z.array(BandSummary).nullish(),
  /** Ours only: the satellite the bandset belongs to (the real service does not say). */
  satellite_id: text,
});
export type BandsetSummary = z.infer<typeof BandsetSummary>;

export const BandsetList = z.looseObject({ bandsets: z.array(BandsetSummary) });
export type BandsetList = z.infer<typeof BandsetList>;

/** `GET /v0/satellites` (real service: `lens.modifiedSuccessResponse`): one answer, no paging. */
export const SatelliteSummary = z.looseObject({
  id: z.string().min(1),
  name: text,
  bands: z
    .array(
      z.looseObject({
        name: z.string().min(1),
        wavelength: num,
        spatial_resolution: num,
        scale: num,
        offset: num,
      }),
    )
    .nullish(),
  collections: z.array(z.looseObject({ id: z.string(), name: text, provider: text })).nullish(),
});
export type SatelliteSummary = z.infer<typeof SatelliteSummary>;

export const SatelliteList = z.looseObject({ satellites: z.array(SatelliteSummary) });
export type SatelliteList = z.infer<typeof SatelliteList>;

/** `GET /v0/workflows` (real service: `dexter.ListWorkflowsTransformerResponse`). */
export const ListWorkflowsQuery = z.strictObject({
  project_id: IdParam.optional(),
  id: IdParam.optional(),
  name: z.string().min(1).max(200).optional(),
  offset: offsetParam(),
  limit: limitParam(50),
});
export type ListWorkflowsQuery = z.infer<typeof ListWorkflowsQuery>;

export const WorkflowSummary = z.looseObject({
  id: z.string().min(1),
  project_id: text,
  name: text,
  description: text,
  created_by: text,
  created_at: text,
  updated_at: text,
});
export type WorkflowSummary = z.infer<typeof WorkflowSummary>;

export const WorkflowList = z.looseObject({
  workflows: z.array(WorkflowSummary),
  pagination: OffsetPagination.nullish(),
});
export type WorkflowList = z.infer<typeof WorkflowList>;
