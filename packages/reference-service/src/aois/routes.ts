/** 4.12 POST /v0/aois, 4.4 GET /v0/aois and 4.2 GET /v0/aois/{aoi_id}/assets. */
import { centroid, geodesicArea, type ErrorDetail } from '@eo/domain';
import { getArchiveScenes } from '../archive/repository';
import type { AppContext } from '../context';
import type { Router } from '../http/endpoint';
import { ApiError } from '../http/errors';
import { fitPage, offsetPage } from '../http/pagination';
import { newId } from '../ids';
import { projectBelongsTo } from '../orgs/repository';
import { satelliteById } from '../reference/catalog';
import { toAssetDate } from '../time';
import { AOI_STEP, registerAoiSteps } from './processing';
import { getAoi, insertAoi, insertAsset, listAois, listAssets } from './repository';
import { aoiToWire, assetToWire } from './wire';

/** A 400 listing every problem found in the body at once. */
export function bodyProblems(details: ErrorDetail[]): ApiError {
  const first = details[0]!;
  return new ApiError(
    400,
    'validation_failed',
    `Invalid body: ${first.path}: ${first.message}`,
    details.map((d) => ({ ...d, in: 'body' })),
  );
}

export function registerAoiRoutes(router: Router, ctx: AppContext): void {
  registerAoiSteps(ctx);

  router.create('createAoi', ({ principal, body }) => {
    const problems: ErrorDetail[] = [];
    if (!projectBelongsTo(ctx.sqlite, body.project_id, principal.orgId)) {
      problems.push({
        path: 'project_id',
        message: `unknown project ${JSON.stringify(body.project_id)} in your organisation`,
      });
    }
    const satellite = satelliteById(body.satellite_id);
    if (!satellite) {
      problems.push({
        path: 'satellite_id',
        message: `unknown satellite ${JSON.stringify(body.satellite_id)}`,
      });
    }
    const scenes = getArchiveScenes(ctx.sqlite, body.item_ids);
    const seen = new Set<string>();
    body.item_ids.forEach((itemId, k) => {
      const path = `item_ids.${k}`;
      if (seen.has(itemId)) {
        problems.push({ path, message: `${JSON.stringify(itemId)} is listed twice` });
        return;
      }
      seen.add(itemId);
      const scene = scenes.get(itemId);
      if (!scene) {
        problems.push({ path, message: `no archive scene ${JSON.stringify(itemId)}` });
      } else if (satellite && scene.satellite_id !== satellite.id) {
        problems.push({
          path,
          message: `scene ${JSON.stringify(itemId)} was taken by ${scene.satellite_id}, not ${satellite.id}`,
        });
      }
    });
    const area = geodesicArea(body.geometry);
    if (!(area > 0)) problems.push({ path: 'geometry', message: 'the geometry encloses no area' });
    if (problems.length > 0 || !satellite) throw bodyProblems(problems);

    const now = ctx.nowUs();
    const aoiId = newId('aoi');
    const bands = satellite.bands.map((b) => b.name);
    insertAoi(ctx.sqlite, {
      id: aoiId,
      orgId: principal.orgId,
      userId: principal.userId,
      projectId: body.project_id,
      satelliteId: satellite.id,
      provider: body.provider,
      name: body.name,
      description: body.description,
      geometry: body.geometry,
      itemIds: body.item_ids,
      eoBands: bands,
      areaSqM: area,
      // An area geometry always has a centroid.
      centroid: centroid(body.geometry)!,
      nowUs: now,
    });
    for (const itemId of body.item_ids) {
      const scene = scenes.get(itemId)!;
      const date = toAssetDate(scene.datetime_us);
      insertAsset(ctx.sqlite, {
        id: newId('ast'),
        orgId: principal.orgId,
        aoiId,
        visualizationId: null,
        sourceItemId: itemId,
        sourceAssetId: null,
        name: itemId,
        description: `Scene ${itemId} (${satellite.name}, ${date}) cut to AOI ${body.name}`,
        assetType: 'scene',
        bandList: bands,
        date,
        nowUs: now,
      });
    }
    ctx.worker.schedule(AOI_STEP, aoiId);
    return aoiToWire(getAoi(ctx.sqlite, principal.orgId, aoiId)!);
  });

  // The provider's read of one AOI (singular `aoi` in its path).
  router.readExtension('getAoi', ({ principal, params }) => {
    const aoi = getAoi(ctx.sqlite, principal.orgId, params.aoi_id);
    if (!aoi) throw ApiError.notFound('AOI', params.aoi_id);
    return aoiToWire(aoi);
  });

  router.read('listAois', ({ principal, query }) => {
    const { rows: all, total } = listAois(ctx.sqlite, principal.orgId, query);
    const { rows, limit } = fitPage(
      all,
      query.limit,
      (r) => r.geometry_json.length + 2048,
      ctx.config.maxListPageBytes,
    );
    return { aois: rows.map(aoiToWire), pagination: offsetPage(limit, query.offset, total) };
  });

  router.read('listAoiAssets', ({ principal, params, query }) => {
    const aoi = getAoi(ctx.sqlite, principal.orgId, params.aoi_id);
    if (!aoi) throw ApiError.notFound('AOI', params.aoi_id);
    const listed = listAssets(ctx.sqlite, aoi.id, query.limit, query.offset);
    const { rows, limit } = fitPage(
      listed.rows,
      query.limit,
      (r) => (r.geometry_json?.length ?? 0) + 2048,
      ctx.config.maxListPageBytes,
    );
    return {
      assets: rows.map(assetToWire),
      pagination: offsetPage(limit, query.offset, listed.total),
    };
  });
}
