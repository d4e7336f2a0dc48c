/**
 * Background delivery (step `delivery.advance`), one transaction per step:
 *
 *   PENDING --> IN_PROGRESS --> SUCCESS   (manifest written under the delivery root)
 *                          \--> FAILED    (with `reason`)
 *
 * In IN_PROGRESS an order item delivery whose task is still PENDING / IN_PROGRESS waits (the
 * step re-runs after the step delay) until the task ends. FAILED reasons: the order item has
 * no task (never paid, cancelled, or infeasible), its task failed, the catalog record is
 * gone, the path resolves outside the delivery area, or the worker gave up on the step
 * (the manifest could not be written after every retry). Writing the manifest is idempotent
 * (same file, replaced atomically), so a step retried after a crash does no harm.
 */
import type { AppContext } from '../context';
import type { StepTools } from '../worker/worker';
import { toIso } from '../time';
import { UnsafePathError, writeManifest } from './paths';
import type { DeliveryQueries, DeliveryRow } from './repository';
import { deliveryToWire } from './repository';

export const DELIVERY_STEP = 'delivery.advance';

type Outcome = { wait: true } | { fail: string } | { recordJson: string; catalogId: string };

function whatToDeliver(q: DeliveryQueries, d: DeliveryRow): Outcome {
  if (d.order_item_id !== null) {
    if (d.task_id === null) return { fail: `order item ${d.order_item_id} has no completed task` };
    const task = q.task(d.task_id);
    if (!task) return { fail: `task ${d.task_id} no longer exists` };
    if (task.status === 'PENDING' || task.status === 'IN_PROGRESS') return { wait: true };
    if (task.status !== 'COMPLETED' || task.catalog_id === null) {
      return {
        fail: `task ${task.id} did not complete${task.failure_reason ? `: ${task.failure_reason}` : ''}`,
      };
    }
    const record = q.catalogRecord(task.catalog_id, d.org_id);
    if (!record) return { fail: `catalog record ${task.catalog_id} no longer exists` };
    return { recordJson: record.record_json, catalogId: record.id };
  }
  const record = q.catalogRecord(d.catalog_id!, d.org_id);
  if (!record) return { fail: `catalog record ${d.catalog_id} no longer exists` };
  return { recordJson: record.record_json, catalogId: record.id };
}

export function registerDeliverySteps(ctx: AppContext, q: DeliveryQueries): void {
  function advance(deliveryId: string, tools: StepTools): void {
    const d = q.get(deliveryId);
    if (!d) return;
    const now = ctx.nowUs();
    if (d.status === 'PENDING') {
      q.update({ ...d, status: 'IN_PROGRESS', updated_at: now });
      tools.schedule(DELIVERY_STEP, deliveryId);
      return;
    }
    if (d.status !== 'IN_PROGRESS') return;
    const what = whatToDeliver(q, d);
    if ('wait' in what) {
      tools.schedule(DELIVERY_STEP, deliveryId);
      return;
    }
    if ('fail' in what) {
      q.update({ ...d, status: 'FAILED', reason: what.fail, updated_at: now });
      return;
    }
    const delivered = { ...d, status: 'SUCCESS', catalog_id: what.catalogId, updated_at: now };
    try {
      writeManifest(ctx.config.deliveryRoot, d.org_id, d.cloud_path, d.id, {
        manifest_version: 1,
        delivery: deliveryToWire(delivered),
        delivered_at: toIso(now),
        items: [JSON.parse(what.recordJson)],
      });
    } catch (err) {
      if (!(err instanceof UnsafePathError)) throw err;
      q.update({ ...d, status: 'FAILED', reason: err.message, updated_at: now });
      return;
    }
    q.update(delivered);
  }
  /** The worker gave up (e.g. the disk refused the manifest): FAILED with why, never stuck. */
  function giveUp(deliveryId: string, reason: string): void {
    const d = q.get(deliveryId);
    if (!d || d.status === 'SUCCESS' || d.status === 'FAILED') return;
    q.update({ ...d, status: 'FAILED', reason, updated_at: ctx.nowUs() });
  }
  ctx.worker.register(DELIVERY_STEP, advance, giveUp);
}
