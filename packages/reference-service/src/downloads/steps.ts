/**
 * Background download (step `download.advance`), one transaction per step, like deliveries:
 *
 *   created --> in_progress --> success   (scenes resolved; files signed at response time)
 *                          \--> failed    (with `reason`)
 *
 * In `in_progress` the requested ids are resolved to scenes: a catalog record is its own scene;
 * an order item gives the records of its completed tasks (it waits while it is unpaid or a task
 * is pending or in progress, and fails when none completed); an AOI asset gives the archive scene it was cut
 * from (it waits while the AOI is producing it, and fails when producing it failed). A record
 * or scene gone since the request fails the download. Then each scene's COG is asked for
 * (`ctx.imagery.cogs.ensure`: started when missing, rendered off the event loop): the download
 * waits while one renders and fails when one cannot be made. Nothing is written but the row (a
 * render is the same file whoever starts it), so a step retried after a crash does no harm.
 */
import type { AppContext } from '../context';
import type { StepTools } from '../worker/worker';
import type { DownloadQueries, DownloadRow, RequestedField, SceneRef } from './repository';

export const DOWNLOAD_STEP = 'download.advance';
/** Least wait between two looks at a download whose files are being made. */
export const RENDER_POLL_MS = 1000;

type Resolved = { wait: true } | { fail: string } | { scenes: SceneRef[] };

function resolveOne(
  q: DownloadQueries,
  d: DownloadRow,
  field: RequestedField,
  id: string,
): Resolved {
  switch (field) {
    case 'catalog_ids':
      return q.catalogRecordExists(id, d.org_id)
        ? { scenes: [{ source: 'catalog', id }] }
        : { fail: `catalog record ${id} no longer exists` };
    case 'order_item_ids': {
      const tasks = q.tasksOfItem(id);
      if (tasks.length === 0) {
        // Tasks are made when the order is paid: a DRAFT item waits for its payment.
        const itemStatus = q.orderItemStatus(id, d.org_id);
        if (itemStatus === 'DRAFT') return { wait: true };
        return { fail: `order item ${id} has no task (${itemStatus ?? 'no longer exists'})` };
      }
      if (tasks.some((t) => t.status === 'PENDING' || t.status === 'IN_PROGRESS'))
        return { wait: true };
      const done = tasks.filter((t) => t.status === 'COMPLETED' && t.catalog_id !== null);
      if (done.length === 0) {
        const why = tasks.find((t) => t.failure_reason)?.failure_reason;
        return { fail: `no task of order item ${id} completed${why ? `: ${why}` : ''}` };
      }
      for (const t of done) {
        if (!q.catalogRecordExists(t.catalog_id!, d.org_id))
          return { fail: `catalog record ${t.catalog_id} no longer exists` };
      }
      return { scenes: done.map((t) => ({ source: 'catalog', id: t.catalog_id! })) };
    }
    case 'asset_ids': {
      const asset = q.asset(id, d.org_id);
      if (!asset) return { fail: `asset ${id} no longer exists` };
      if (asset.status === 'pending' || asset.status === 'running') return { wait: true };
      if (asset.status !== 'success' || asset.source_item_id === null)
        return { fail: `asset ${id} was not produced (${asset.status})` };
      if (!q.archiveSceneExists(asset.source_item_id))
        return { fail: `archive scene ${asset.source_item_id} no longer exists` };
      return { scenes: [{ source: 'archive', id: asset.source_item_id }] };
    }
  }
}

/** Every requested id's scenes, in request order, each scene once; or why it waits or fails. */
export function resolveScenes(q: DownloadQueries, d: DownloadRow): Resolved {
  const ids = JSON.parse(d.requested_ids_json) as string[];
  const scenes: SceneRef[] = [];
  const seen = new Set<string>();
  let wait = false;
  for (const id of ids) {
    const r = resolveOne(q, d, d.requested_field as RequestedField, id);
    if ('fail' in r) return r;
    if ('wait' in r) {
      wait = true;
      continue;
    }
    for (const s of r.scenes) {
      const key = `${s.source}\n${s.id}`;
      if (!seen.has(key)) scenes.push(s);
      seen.add(key);
    }
  }
  return wait ? { wait: true } : { scenes };
}

/**
 * Every scene's COG ready (`ensure` starts a render that is missing, and never blocks); or why
 * the download waits (a render under way) or fails.
 */
function filesReady(ctx: AppContext, orgId: string, scenes: readonly SceneRef[]): Resolved {
  let wait = false;
  for (const scene of scenes) {
    const state = ctx.imagery.cogs.ensure(orgId, scene);
    if (state.status === 'rendering') wait = true;
    else if (state.status === 'failed')
      return { fail: `the file of scene ${scene.id} could not be made: ${state.reason}` };
    else if (state.status === 'not-found')
      return { fail: `scene ${scene.id} has no data the service can make a file of` };
  }
  return wait ? { wait: true } : { scenes: [...scenes] };
}

export function registerDownloadSteps(ctx: AppContext, q: DownloadQueries): void {
  function advance(downloadId: string, tools: StepTools): void {
    const d = q.get(downloadId);
    if (!d) return;
    const now = ctx.nowUs();
    if (d.status === 'created') {
      q.update({ ...d, status: 'in_progress', updated_at: now });
      tools.schedule(DOWNLOAD_STEP, downloadId);
      return;
    }
    if (d.status !== 'in_progress') return;
    const resolved = resolveScenes(q, d);
    const r = 'scenes' in resolved ? filesReady(ctx, d.org_id, resolved.scenes) : resolved;
    if ('wait' in r) {
      // A render takes seconds to minutes: asked again after the step delay, at least a second.
      tools.schedule(DOWNLOAD_STEP, downloadId, Math.max(tools.stepDelayMs, RENDER_POLL_MS));
      return;
    }
    if ('fail' in r) {
      q.update({ ...d, status: 'failed', reason: r.fail, updated_at: now });
      return;
    }
    q.update({ ...d, status: 'success', scenes_json: JSON.stringify(r.scenes), updated_at: now });
  }
  /** The worker gave up: failed with why, never stuck in progress. */
  function giveUp(downloadId: string, reason: string): void {
    const d = q.get(downloadId);
    if (!d || d.status === 'success' || d.status === 'failed') return;
    q.update({ ...d, status: 'failed', reason, updated_at: ctx.nowUs() });
  }
  ctx.worker.register(DOWNLOAD_STEP, advance, giveUp);
}
