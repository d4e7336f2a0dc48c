/**
 * The provider's download operations, served as extensions (`@eo/domain` downloads.ts):
 * `POST /v0/catalogs/download` (catalog record ids or order item ids) and
 * `POST /v0/aois/{aoi_id}/downloads` (asset ids) create one download each, answered `created`;
 * the worker finishes it (steps.ts) and the reads show its status, then its `signed_url` and
 * `files` (files.ts). Per organisation: another organisation's ids, and another AOI's downloads
 * under this AOI's path, are 404. Unknown ids are a 404 naming each with its path; a repeated id,
 * or an asset that is not a scene, is a 400. Creates are idempotent like the spec's.
 */
import type { ErrorDetail } from '@eo/domain';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import type { Router } from '../http/endpoint';
import { ApiError } from '../http/errors';
import { newId } from '../ids';
import { toIso } from '../time';
import { downloadFiles, registerDownloadFileRoutes } from './files';
import {
  makeDownloadQueries,
  type DownloadQueries,
  type DownloadRow,
  type RequestedField,
} from './repository';
import { DOWNLOAD_STEP, registerDownloadSteps } from './steps';

function common(ctx: AppContext, d: DownloadRow) {
  return {
    status: d.status,
    ...downloadFiles(ctx, d),
    reason: d.reason,
    created_at: toIso(d.created_at),
    updated_at: toIso(d.updated_at),
  };
}

/** `clerk.DownloadResponse` and our fields; both id lists, the unused one empty (as requested). */
export function catalogDownloadToWire(ctx: AppContext, d: DownloadRow) {
  const ids = JSON.parse(d.requested_ids_json) as string[];
  return {
    id: d.id,
    ...common(ctx, d),
    catalog_ids: d.requested_field === 'catalog_ids' ? ids : [],
    order_item_ids: d.requested_field === 'order_item_ids' ? ids : [],
  };
}

/** `atlas.DownloadReadModel` (the id is `download_id`) and our fields. */
export function aoiDownloadToWire(ctx: AppContext, d: DownloadRow) {
  return {
    download_id: d.id,
    ...common(ctx, d),
    aoi_id: d.aoi_id,
    asset_ids: JSON.parse(d.requested_ids_json) as string[],
  };
}

/** Checks each id once (400 for a repeat, 404 for an unknown one, both with their paths). */
function checkIds(
  field: RequestedField,
  ids: readonly string[],
  problem: (id: string) => { status: 400 | 404; message: string } | null,
): void {
  const invalid: ErrorDetail[] = [];
  const missing: ErrorDetail[] = [];
  const seen = new Set<string>();
  ids.forEach((id, k) => {
    const path = `${field}.${k}`;
    if (seen.has(id)) invalid.push({ path, message: `${id} is listed twice` });
    seen.add(id);
    const p = problem(id);
    if (p) (p.status === 400 ? invalid : missing).push({ path, message: p.message });
  });
  if (invalid.length > 0)
    throw new ApiError(
      400,
      'validation_failed',
      `Invalid body: ${invalid[0]!.path}: ${invalid[0]!.message}`,
      invalid,
    );
  if (missing.length > 0)
    throw new ApiError(404, 'not_found', `${missing[0]!.path}: ${missing[0]!.message}`, missing);
}

export function registerDownloadRoutes(
  router: Router,
  app: FastifyInstance,
  ctx: AppContext,
): void {
  const q: DownloadQueries = makeDownloadQueries(ctx.sqlite);
  registerDownloadSteps(ctx, q);
  registerDownloadFileRoutes(app, ctx, q);

  const insert = (
    orgId: string,
    userId: string,
    aoiId: string | null,
    field: RequestedField,
    ids: readonly string[],
  ): DownloadRow => {
    const now = ctx.nowUs();
    const row: DownloadRow = {
      id: newId('dl'),
      org_id: orgId,
      aoi_id: aoiId,
      requested_field: field,
      requested_ids_json: JSON.stringify(ids),
      status: 'created',
      reason: null,
      scenes_json: null,
      created_by: userId,
      created_at: now,
      updated_at: now,
    };
    q.insert(row);
    ctx.worker.schedule(DOWNLOAD_STEP, row.id);
    return row;
  };

  router.createExtension('createCatalogDownload', ({ principal, body }) => {
    const field = body.catalog_ids?.length ? 'catalog_ids' : 'order_item_ids';
    const ids = body[field] ?? [];
    const org = principal.orgId;
    checkIds(field, ids, (id) =>
      (field === 'catalog_ids' ? q.catalogRecordExists(id, org) : q.orderItemExists(id, org))
        ? null
        : {
            status: 404,
            message: `${field === 'catalog_ids' ? 'catalog record' : 'order item'} ${JSON.stringify(id)} was not found`,
          },
    );
    return catalogDownloadToWire(ctx, insert(org, principal.userId, null, field, ids));
  });

  router.readExtension('getCatalogDownload', ({ principal, params }) => {
    const d = q.get(params.download_id);
    if (!d || d.org_id !== principal.orgId || d.aoi_id !== null)
      throw ApiError.notFound('download', params.download_id);
    return catalogDownloadToWire(ctx, d);
  });

  router.createExtension('createAoiDownload', ({ principal, params, body }) => {
    const org = principal.orgId;
    if (!q.aoiExists(params.aoi_id, org)) throw ApiError.notFound('AOI', params.aoi_id);
    checkIds('asset_ids', body.asset_ids, (id) => {
      const asset = q.asset(id, org);
      if (!asset || asset.aoi_id !== params.aoi_id)
        return { status: 404, message: `asset ${JSON.stringify(id)} of this AOI was not found` };
      if (asset.asset_type !== 'scene')
        return {
          status: 400,
          message: `asset ${JSON.stringify(id)} is an ${asset.asset_type} asset: only scene assets have a scene file`,
        };
      return null;
    });
    return aoiDownloadToWire(
      ctx,
      insert(org, principal.userId, params.aoi_id, 'asset_ids', body.asset_ids),
    );
  });

  router.readExtension('getAoiDownload', ({ principal, params }) => {
    const d = q.get(params.download_id);
    if (!d || d.org_id !== principal.orgId || d.aoi_id !== params.aoi_id)
      throw ApiError.notFound('download', params.download_id);
    return aoiDownloadToWire(ctx, d);
  });
}
