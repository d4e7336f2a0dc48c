/**
 * The reference lists forms offer as choices: projects, bandsets, satellites (with their bands)
 * and workflows. Our spec has no read for them; the provider's real service has
 * `GET /v0/projects`, `/v0/bandsets`, `/v0/satellites` and `/v0/workflows`, and our reference
 * service offers the same reads as extensions, at the same paths and in the same shapes, so
 * both profiles read them alike (`@eo/domain` `reference.ts`).
 *
 * Each method reads the whole list (projects page by `page_num`/`page_size`, workflows by
 * `offset`/`limit`) and resolves to `null` on a 404: a service without the read. Entries are read
 * tolerantly: one without a string `id` is skipped; a body without its list key is an
 * `EoResponseError` (envelope breakage), like every list.
 */
import {
  extensionEndpoints,
  type BandsetSummary,
  type EndpointDef,
  type ProjectSummary,
  type SatelliteSummary,
  type WorkflowSummary,
} from '@eo/domain';
import { EoResponseError } from './errors';
import type { CallOptions } from './options';
import { encodeQuery } from './request';
import type { AnyEndpointId } from './types';

export interface ReferenceReads {
  /** The caller's projects; null when the service has no such read. */
  listProjects(options?: CallOptions): Promise<ProjectSummary[] | null>;
  listBandsets(options?: CallOptions): Promise<BandsetSummary[] | null>;
  /** Satellites with every band they carry. */
  listSatellites(options?: CallOptions): Promise<SatelliteSummary[] | null>;
  listWorkflows(
    filter?: { readonly project_id?: string },
    options?: CallOptions,
  ): Promise<WorkflowSummary[] | null>;
}

/** One GET of an extension read: the body (drift reported), or null on 404. */
export type ReadOnce = (
  id: AnyEndpointId,
  def: EndpointDef,
  query: Record<string, string> | undefined,
  options: CallOptions | undefined,
) => Promise<Record<string, unknown> | null>;

/** Enough for any reference list; a service that ignores paging cannot loop us forever. */
const MAX_PAGES = 100;
const PROJECT_PAGE = 100;
/** The real service's default (and our) workflow page. */
const WORKFLOW_PAGE = 50;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function entries(body: Record<string, unknown>, key: string, id: AnyEndpointId, path: string) {
  const list = body[key];
  if (!Array.isArray(list)) {
    throw new EoResponseError({
      endpoint: id,
      method: 'GET',
      path,
      status: 200,
      message: `GET ${path}: unusable response: "${key}" ${list === undefined ? 'is missing' : 'is not a list'}`,
      issues: [{ path: key, message: 'expected a list' }],
    });
  }
  return list.filter(
    (r): r is Record<string, unknown> & { id: string } =>
      isRecord(r) && typeof r.id === 'string' && r.id !== '',
  );
}

const num = (v: unknown): number | null => (typeof v === 'number' && v >= 0 ? v : null);

export function makeReferenceReads(read: ReadOnce): ReferenceReads {
  const e = extensionEndpoints;

  /** Pages until a short page, the total, a page with nothing new, or MAX_PAGES. */
  async function paged(
    id: 'listProjects' | 'listWorkflows',
    key: string,
    pageSize: number,
    query: (page: number, seen: number) => Record<string, string>,
    total: (body: Record<string, unknown>) => number | null,
    options: CallOptions | undefined,
  ) {
    const byId = new Map<string, Record<string, unknown>>();
    for (let page = 0; page < MAX_PAGES; page++) {
      const q = query(page, byId.size);
      const body = await read(id, e[id], q, options);
      if (body === null) return page === 0 ? null : [...byId.values()];
      const list = entries(body, key, id, e[id].path + encodeQuery(q));
      const before = byId.size;
      for (const r of list) if (!byId.has(r.id)) byId.set(r.id, r);
      const all = total(body);
      if (list.length < pageSize || byId.size === before || (all !== null && byId.size >= all)) {
        break;
      }
    }
    return [...byId.values()];
  }

  async function whole(id: 'listBandsets' | 'listSatellites', key: string, options?: CallOptions) {
    const body = await read(id, e[id], undefined, options);
    return body === null ? null : entries(body, key, id, e[id].path);
  }

  return {
    listProjects: async (options) =>
      (await paged(
        'listProjects',
        'projects',
        PROJECT_PAGE,
        (page) => ({ page_num: String(page + 1), page_size: String(PROJECT_PAGE) }),
        (body) => num(body.count) || null,
        options,
      )) as ProjectSummary[] | null,
    listBandsets: async (options) =>
      (await whole('listBandsets', 'bandsets', options)) as BandsetSummary[] | null,
    listSatellites: async (options) =>
      (await whole('listSatellites', 'satellites', options)) as SatelliteSummary[] | null,
    listWorkflows: async (filter = {}, options) =>
      (await paged(
        'listWorkflows',
        'workflows',
        WORKFLOW_PAGE,
        (_page, seen) => ({
          ...(filter.project_id ? { project_id: filter.project_id } : {}),
          offset: String(seen),
          limit: String(WORKFLOW_PAGE),
        }),
        (body) => (isRecord(body.pagination) ? num(body.pagination.total) : null),
        options,
      )) as WorkflowSummary[] | null,
  };
}
