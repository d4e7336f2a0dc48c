/** 4.10 POST /v0/aois/{aoi_id}/visualizations. */
import type { ErrorDetail } from '@eo/domain';
import { getAoi, getAoiAssets, insertAsset } from '../aois/repository';
import { bodyProblems } from '../aois/routes';
import { isSettled, refreshAoiStatus } from '../aois/status';
import type { AppContext } from '../context';
import type { Router } from '../http/endpoint';
import { ApiError } from '../http/errors';
import { offsetPage } from '../http/pagination';
import { newId } from '../ids';
import { getIndex } from '../indices/repository';
import { registerVisualizationSteps } from './processing';
import {
  getVisualizationById,
  insertVisualization,
  listAoiVisualizations,
  visualizationAssets,
} from './repository';
import { VISUALIZATION_STEP } from './steps';
import { visualizationToWire } from './wire';

export function registerVisualizationRoutes(router: Router, ctx: AppContext): void {
  registerVisualizationSteps(ctx);

  router.create('createVisualization', ({ principal, params, body }) => {
    const aoi = getAoi(ctx.sqlite, principal.orgId, params.aoi_id);
    if (!aoi) throw ApiError.notFound('AOI', params.aoi_id);

    const problems: ErrorDetail[] = [];
    // Presets and the organisation's own indices; another organisation's are unknown here.
    const index = getIndex(ctx.sqlite, principal.orgId, body.index_id);
    if (!index) {
      problems.push({
        path: 'index_id',
        message: `unknown index ${JSON.stringify(body.index_id)}`,
      });
    } else if (index.satellite_id !== aoi.satellite_id) {
      problems.push({
        path: 'index_id',
        message: `index ${JSON.stringify(index.id)} is for ${index.satellite_id}; this AOI is on ${aoi.satellite_id}`,
      });
    }
    const sources = getAoiAssets(ctx.sqlite, aoi.id, body.src_asset_ids);
    const seen = new Set<string>();
    body.src_asset_ids.forEach((assetId, k) => {
      const path = `src_asset_ids.${k}`;
      if (seen.has(assetId)) {
        problems.push({ path, message: `${JSON.stringify(assetId)} is listed twice` });
        return;
      }
      seen.add(assetId);
      const src = sources.get(assetId);
      if (!src) {
        problems.push({ path, message: `${JSON.stringify(assetId)} is not an asset of this AOI` });
      } else if (src.asset_type !== 'scene') {
        problems.push({
          path,
          message: `${JSON.stringify(assetId)} is an ${src.asset_type} asset; visualize scene assets`,
        });
      }
    });
    if (problems.length > 0 || !index) throw bodyProblems(problems);

    const now = ctx.nowUs();
    const id = newId('vis');
    const bands = JSON.parse(index.bands_json) as string[];
    insertVisualization(ctx.sqlite, {
      id,
      orgId: principal.orgId,
      userId: principal.userId,
      aoiId: aoi.id,
      indexId: index.id,
      indexName: index.name,
      expression: index.expression,
      expressionType: index.expression_type,
      rescale: JSON.parse(index.rescale_json) as number[],
      srcAssetIds: body.src_asset_ids,
      nowUs: now,
    });
    for (const assetId of body.src_asset_ids) {
      const src = sources.get(assetId)!;
      insertAsset(ctx.sqlite, {
        id: newId('ast'),
        orgId: principal.orgId,
        aoiId: aoi.id,
        visualizationId: id,
        sourceItemId: src.source_item_id,
        sourceAssetId: src.id,
        name: `${index.name} ${src.date}`,
        description: `${index.name} (${index.expression}) of ${src.name}`,
        assetType: 'index',
        bandList: bands,
        date: src.date,
        nowUs: now,
      });
    }
    // On an AOI still producing its scenes, the visualization waits: the AOI's last step queues it.
    if (isSettled(aoi.scene_status)) ctx.worker.schedule(VISUALIZATION_STEP, id);
    refreshAoiStatus(ctx.sqlite, aoi.id, now);
    return visualizationToWire(
      getVisualizationById(ctx.sqlite, id)!,
      visualizationAssets(ctx.sqlite, id),
    );
  });

  router.readExtension('getVisualization', ({ principal, params }) => {
    const v = getVisualizationById(ctx.sqlite, params.visualization_id);
    if (!v || v.org_id !== principal.orgId || v.aoi_id !== params.aoi_id) {
      throw ApiError.notFound('visualization', params.visualization_id);
    }
    return visualizationToWire(v, visualizationAssets(ctx.sqlite, v.id));
  });

  // The provider's list items carry no assets: read one visualization for those.
  router.readExtension('listVisualizations', ({ principal, params, query }) => {
    const aoi = getAoi(ctx.sqlite, principal.orgId, params.aoi_id);
    if (!aoi) throw ApiError.notFound('AOI', params.aoi_id);
    const { rows, total } = listAoiVisualizations(ctx.sqlite, aoi.id, query);
    return {
      visualization: rows.map((v) => {
        const { assets: _assets, ...item } = visualizationToWire(v, []);
        return item;
      }),
      pagination: offsetPage(query.limit, query.offset, total),
    };
  });
}
