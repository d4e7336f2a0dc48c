/**
 * Background production of an AOI's scene assets, one worker step at a time:
 *
 * - step 1: the AOI goes `started` -> `running`; its first asset `pending` -> `running`.
 * - each next step finishes the running asset (`success` with footprint ∩ AOI, or `failed`
 *   when the scene does not intersect the AOI), updates the AOI's progress and starts the
 *   next asset; the step finishing the last asset settles the AOI (success / partial_success /
 *   failed, progress 100) and resumes the visualizations that waited for it.
 *
 * Each step runs in one transaction with its effects and its successor, so a restart resumes
 * exactly where it stopped. A repeated step finds nothing to do and changes nothing.
 */
import { centroid, geodesicArea, type Geometry } from '@eo/domain';
import { getArchiveScenes, sceneFeature } from '../archive/repository';
import type { AppContext } from '../context';
import type { StepTools } from '../worker/worker';
import { VISUALIZATION_STEP } from '../visualizations/steps';
import { clipAoiToFootprint, type Area } from './geo';
import {
  assetStatusCounts,
  failUnfinishedAssets,
  finishAsset,
  firstAssetInStatus,
  getAoiById,
  markAssetRunning,
  updateAoiProgress,
  type AoiRow,
  type AssetOutcome,
  type AssetRow,
} from './repository';
import { outcomeOf, refreshAoiStatus } from './status';
import { stmt } from './statements';
import { sceneAssetPath } from './storage';

export const AOI_STEP = 'aoi.advance';

export function registerAoiSteps(ctx: AppContext): void {
  ctx.worker.register(
    AOI_STEP,
    (aoiId, tools) => advanceAoi(ctx, aoiId, tools),
    (aoiId, reason, tools) => giveUpAoi(ctx, aoiId, reason, tools),
  );
}

/**
 * The worker gave up on a step: the unfinished scene assets fail with the reason as their
 * description, the AOI settles from its counts (failed when nothing succeeded), and the
 * visualizations that waited for it go on (their sources failed, so they fail too).
 */
export function giveUpAoi(ctx: AppContext, aoiId: string, reason: string, tools: StepTools): void {
  const aoi = getAoiById(ctx.sqlite, aoiId);
  if (!aoi || (aoi.scene_status !== 'started' && aoi.scene_status !== 'running')) return;
  const now = ctx.nowUs();
  failUnfinishedAssets(ctx.sqlite, { aoiId }, reason, now);
  settleAoi(ctx, aoiId, tools, now);
}

/** The last step of an AOI's run: its outcome, then the visualizations that waited for it. */
function settleAoi(ctx: AppContext, aoiId: string, tools: StepTools, now: number): void {
  updateAoiProgress(
    ctx.sqlite,
    aoiId,
    outcomeOf(assetStatusCounts(ctx.sqlite, { aoiId })),
    100,
    now,
  );
  // Visualizations created while the AOI was in progress waited for it (see visualizations/).
  const waiting = stmt<[string], { id: string }>(
    ctx.sqlite,
    "SELECT id FROM visualizations WHERE aoi_id = ? AND status = 'creating' ORDER BY seq",
  ).all(aoiId);
  for (const v of waiting) tools.schedule(VISUALIZATION_STEP, v.id);
  refreshAoiStatus(ctx.sqlite, aoiId, now);
}

/** The scene cut to the AOI, or a failure when it does not cover any of it. */
function produceSceneAsset(ctx: AppContext, aoi: AoiRow, asset: AssetRow): AssetOutcome {
  const failed = (why: string): AssetOutcome => ({
    status: 'failed',
    geometry: null,
    areaSqM: null,
    centroid: null,
    path: null,
    description: why,
  });
  const itemId = asset.source_item_id ?? '';
  const scene = getArchiveScenes(ctx.sqlite, [itemId]).get(itemId);
  if (!scene) return failed(`Scene ${itemId} is no longer in the archive`);
  const footprint = (sceneFeature(scene).geometry ?? null) as Geometry | null;
  const cut = clipAoiToFootprint(JSON.parse(aoi.geometry_json) as Area, footprint);
  if (!cut) return failed(`Scene ${itemId} does not intersect the AOI`);
  return {
    status: 'success',
    geometry: cut,
    areaSqM: geodesicArea(cut),
    centroid: centroid(cut),
    path: sceneAssetPath(aoi.org_id, aoi.id, asset.id),
  };
}

export function advanceAoi(ctx: AppContext, aoiId: string, tools: StepTools): void {
  const aoi = getAoiById(ctx.sqlite, aoiId);
  if (!aoi) return;
  const now = ctx.nowUs();
  const owner = { aoiId };

  if (aoi.scene_status === 'started') {
    updateAoiProgress(ctx.sqlite, aoiId, 'running', 0, now);
    const first = firstAssetInStatus(ctx.sqlite, owner, 'pending');
    if (first) markAssetRunning(ctx.sqlite, first.id, now);
    refreshAoiStatus(ctx.sqlite, aoiId, now);
    tools.schedule(AOI_STEP, aoiId);
    return;
  }
  if (aoi.scene_status !== 'running') return;

  const running = firstAssetInStatus(ctx.sqlite, owner, 'running');
  if (running) finishAsset(ctx.sqlite, running.id, produceSceneAsset(ctx, aoi, running), now);
  const next = firstAssetInStatus(ctx.sqlite, owner, 'pending');
  if (next) markAssetRunning(ctx.sqlite, next.id, now);

  const counts = assetStatusCounts(ctx.sqlite, owner);
  const done = counts.success + counts.failed;
  if (done < counts.total) {
    updateAoiProgress(ctx.sqlite, aoiId, 'running', Math.floor((100 * done) / counts.total), now);
    refreshAoiStatus(ctx.sqlite, aoiId, now);
    tools.schedule(AOI_STEP, aoiId);
    return;
  }
  settleAoi(ctx, aoiId, tools, now);
}
