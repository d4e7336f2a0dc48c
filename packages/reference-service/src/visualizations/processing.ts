/**
 * Background production of a visualization's index assets (one per source scene asset),
 * one worker step at a time, like an AOI's scenes (see aois/processing.ts):
 *
 * - a visualization on an AOI still producing its scenes waits (no step is queued); the step
 *   settling the AOI queues it. On a settled AOI its first step is queued at creation.
 * - step 1 starts the first index asset; each next step finishes the running one (`success`
 *   from a `success` source, `failed` from a `failed` one) and starts the next; the last
 *   settles the visualization (success / partial_success / failed, progress 100) and the
 *   AOI leaves `updating`.
 */
import type { Geometry } from '@eo/domain';
import {
  assetStatusCounts,
  failUnfinishedAssets,
  finishAsset,
  firstAssetInStatus,
  getAssetById,
  markAssetRunning,
  type AssetOutcome,
  type AssetRow,
} from '../aois/repository';
import { outcomeOf, refreshAoiStatus } from '../aois/status';
import { indexAssetPath } from '../aois/storage';
import type { AppContext } from '../context';
import type { StepTools } from '../worker/worker';
import {
  getVisualizationById,
  updateVisualizationProgress,
  type VisualizationRow,
} from './repository';
import { VISUALIZATION_STEP } from './steps';

export function registerVisualizationSteps(ctx: AppContext): void {
  ctx.worker.register(
    VISUALIZATION_STEP,
    (id, tools) => advanceVisualization(ctx, id, tools),
    (id, reason) => giveUpVisualization(ctx, id, reason),
  );
}

/** The worker gave up on a step: unfinished assets fail with the reason; the visualization settles. */
export function giveUpVisualization(ctx: AppContext, id: string, reason: string): void {
  const vis = getVisualizationById(ctx.sqlite, id);
  if (!vis || vis.status !== 'creating') return;
  const now = ctx.nowUs();
  const owner = { visualizationId: id };
  failUnfinishedAssets(ctx.sqlite, owner, reason, now);
  updateVisualizationProgress(
    ctx.sqlite,
    id,
    outcomeOf(assetStatusCounts(ctx.sqlite, owner)),
    100,
    now,
  );
  refreshAoiStatus(ctx.sqlite, vis.aoi_id, now);
}

/** An index raster covers what its source scene asset covers. */
function produceIndexAsset(ctx: AppContext, vis: VisualizationRow, asset: AssetRow): AssetOutcome {
  const src = asset.source_asset_id ? getAssetById(ctx.sqlite, asset.source_asset_id) : undefined;
  if (!src || src.status !== 'success') {
    return {
      status: 'failed',
      geometry: null,
      areaSqM: null,
      centroid: null,
      path: null,
      description: `Source asset ${asset.source_asset_id ?? ''} has no imagery (${src?.status ?? 'missing'})`,
    };
  }
  return {
    status: 'success',
    geometry: src.geometry_json ? (JSON.parse(src.geometry_json) as Geometry) : null,
    areaSqM: src.area_sq_m,
    centroid:
      src.centroid_lon === null || src.centroid_lat === null
        ? null
        : [src.centroid_lon, src.centroid_lat],
    path: indexAssetPath(vis.org_id, vis.aoi_id, vis.id, asset.id),
  };
}

export function advanceVisualization(ctx: AppContext, id: string, tools: StepTools): void {
  const vis = getVisualizationById(ctx.sqlite, id);
  if (!vis || vis.status !== 'creating') return;
  const now = ctx.nowUs();
  const owner = { visualizationId: id };

  const running = firstAssetInStatus(ctx.sqlite, owner, 'running');
  if (running) finishAsset(ctx.sqlite, running.id, produceIndexAsset(ctx, vis, running), now);
  const next = firstAssetInStatus(ctx.sqlite, owner, 'pending');
  if (next) markAssetRunning(ctx.sqlite, next.id, now);

  const counts = assetStatusCounts(ctx.sqlite, owner);
  const done = counts.success + counts.failed;
  if (done < counts.total) {
    updateVisualizationProgress(
      ctx.sqlite,
      id,
      'creating',
      Math.floor((100 * done) / counts.total),
      now,
    );
    tools.schedule(VISUALIZATION_STEP, id);
    return;
  }
  updateVisualizationProgress(ctx.sqlite, id, outcomeOf(counts), 100, now);
  refreshAoiStatus(ctx.sqlite, vis.aoi_id, now);
}
