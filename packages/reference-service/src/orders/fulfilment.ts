/**
 * Background fulfilment of orders, as persisted worker steps (one transaction each, so a
 * restart resumes without losing or repeating anything). State machines:
 *
 * Order status (step `order.payment`, demo auto-payment):
 *   UNPAID --(1st step)--> PAYMENT_IN_PROGRESS --(2nd step)--> PAID (paid_at, transaction_id)
 *   PAYMENT_IN_PROGRESS --(declined: `[fail-payment]`)--> UNPAID, every item CANCELLED
 *   PAID --(every item refunded in full)--> REFUND
 *
 * Order item status / payment_status (on payment, then as its tasks end):
 *   DRAFT/UNPAID --paid--> ACTIVE/PAID, tasks created
 *   DRAFT/UNPAID --paid, feasibility FAILED--> FAILED/REFUND (no task)
 *   DRAFT/UNPAID --payment declined--> CANCELLED/UNPAID
 *   ACTIVE --all tasks COMPLETED--> COMPLETED/PAID
 *   ACTIVE --some tasks FAILED--> PARTIALLY_COMPLETED/PARTIAL-REFUND (failed share refunded)
 *   ACTIVE --all tasks FAILED--> FAILED/REFUND
 *
 * Task status / delivery_status (step `task.advance`):
 *   PENDING/PENDING -> IN_PROGRESS/IN_PROGRESS -> COMPLETED/SUCCESSFUL (+ catalog record)
 *                                              -> FAILED/FAILED
 *
 * Steps are no-ops when the resource is not in the state they expect, so a duplicated or
 * late step changes nothing. When the worker gives up on a step (it failed on every retry):
 * a payment ends like a declined one (order UNPAID, items CANCELLED with a PAYMENT_FAILED
 * validation error giving the reason); a task ends FAILED with the reason, and its item settles.
 */
import { randomUUID } from 'node:crypto';
import type { Instant } from '@eo/domain';
import { getArchiveScenes } from '../archive/repository';
import type { AppContext } from '../context';
import { newId } from '../ids';
import { satelliteById } from '../reference/catalog';
import type { StepTools } from '../worker/worker';
import { archiveRecord, taskingRecord } from './acquisition';
import { declinesPayment, taskShouldFail } from './failure-injection';
import { fulfilmentWrites, type FulfilmentWrites } from './fulfilment-writes';
import type { Window } from './occurrences';
import { cents } from './pricing';
import { stripsFor } from './quote';
import type { OrderQueries } from './repository';
import type { OrderItemRow, TaskRow } from './rows';

export const ORDER_PAYMENT_STEP = 'order.payment';
export const TASK_ADVANCE_STEP = 'task.advance';

const newTransactionId = () => `txn_${randomUUID()}`;

/** The tasks an item is fulfilled by: one per archive scene, one per tasking window. */
function plannedTasks(item: OrderItemRow, sceneDates: Map<string, Instant>) {
  if (item.type === 'ARCHIVE') {
    const ids = JSON.parse(item.item_ids_json ?? '[]') as string[];
    return ids.map((sceneId) => {
      const at = sceneDates.get(sceneId) ?? item.created_at;
      return { type: 'ARCHIVE', sceneId, start: at, end: at };
    });
  }
  const windows = JSON.parse(item.occurrences_json ?? '[]') as Window[];
  return windows.map((w) => ({ type: 'TASKING', sceneId: null, start: w.start, end: w.end }));
}

/** What every step works with: the service, the order queries and the fulfilment writes. */
interface Fulfilment {
  readonly ctx: AppContext;
  readonly q: OrderQueries;
  readonly w: FulfilmentWrites;
}

export function registerFulfilmentSteps(ctx: AppContext, q: OrderQueries): void {
  const f: Fulfilment = { ctx, q, w: fulfilmentWrites(ctx, q) };
  // Each step ends by re-rendering the stored wire JSON of the order it touched.
  ctx.worker.register(
    ORDER_PAYMENT_STEP,
    (orderId, tools) => {
      pay(f, orderId, tools);
      q.renderOrder(orderId);
    },
    (orderId, reason) => {
      giveUpPayment(f, orderId, reason);
      if (q.order(orderId)) q.renderOrder(orderId);
    },
  );
  const renderOrderOfTask = (taskId: string) => {
    const task = q.task(taskId);
    if (task) q.renderOrder(task.order_id);
  };
  ctx.worker.register(
    TASK_ADVANCE_STEP,
    (taskId, tools) => {
      advance(f, taskId, tools);
      renderOrderOfTask(taskId);
    },
    (taskId, reason) => {
      giveUpTask(f, taskId, reason);
      renderOrderOfTask(taskId);
    },
  );
}

/** Step `order.payment`: UNPAID -> PAYMENT_IN_PROGRESS, then PAID (items ACTIVE, tasks made). */
function pay({ ctx, q, w }: Fulfilment, orderId: string, tools: StepTools): void {
  const order = q.order(orderId);
  if (!order) return;
  const now = ctx.nowUs();
  if (order.status === 'UNPAID') {
    w.setOrder.run({ ...order, status: 'PAYMENT_IN_PROGRESS', updated_at: now });
    tools.schedule(ORDER_PAYMENT_STEP, orderId);
    return;
  }
  if (order.status !== 'PAYMENT_IN_PROGRESS') return;
  const items = q.itemsOfOrder(orderId);
  if (declinesPayment(items.map((i) => i.name))) {
    w.setOrder.run({ ...order, status: 'UNPAID', updated_at: now });
    for (const item of items) w.setItem.run({ ...item, status: 'CANCELLED', updated_at: now });
    return;
  }
  const transactionId = newTransactionId();
  w.setOrder.run({
    ...order,
    status: 'PAID',
    paid_at: now,
    transaction_id: transactionId,
    updated_at: now,
  });
  const sceneDates = new Map(
    [
      ...getArchiveScenes(
        ctx.sqlite,
        items.flatMap((i) => JSON.parse(i.item_ids_json ?? '[]') as string[]),
      ),
    ].map(([id, row]) => [id, row.datetime_us]),
  );
  for (const item of items) {
    if (item.feasibility_status === 'FAILED') {
      w.setItem.run({
        ...item,
        status: 'FAILED',
        payment_status: 'REFUND',
        transaction_id: transactionId,
        refunded_amount: item.final_amount,
        updated_at: now,
      });
      continue;
    }
    w.setItem.run({
      ...item,
      status: 'ACTIVE',
      payment_status: 'PAID',
      transaction_id: transactionId,
      updated_at: now,
    });
    startTasks({ ctx, q, w }, item, { transactionId, sceneDates, now }, tools);
  }
  w.settleOrder(orderId, now);
}

/** A paid item's tasks, each scheduled to advance. */
function startTasks(
  { q, w }: Fulfilment,
  item: OrderItemRow,
  paid: { transactionId: string; sceneDates: Map<string, Instant>; now: Instant },
  tools: StepTools,
): void {
  const { transactionId, now } = paid;
  const planned = plannedTasks(item, paid.sceneDates);
  const satellite = satelliteById(item.satellite_id)!;
  const geometries = (
    JSON.parse(item.geometry_json) as { features: Array<{ geometry: never }> }
  ).features.map((f) => f.geometry);
  const strips = item.type === 'ARCHIVE' ? 1 : stripsFor(geometries, satellite);
  planned.forEach((p, position) => {
    const task: TaskRow = {
      id: newId('tsk'),
      order_item_id: item.id,
      order_id: item.order_id,
      org_id: item.org_id,
      position,
      type: p.type,
      status: 'PENDING',
      delivery_status: 'PENDING',
      start_date: p.start,
      end_date: p.end,
      number_of_strips: strips,
      tokens_used: cents(item.tokens_used / planned.length),
      transaction_id: transactionId,
      scene_id: p.sceneId,
      catalog_id: null,
      failure_reason: null,
      created_by: item.user_id,
      updated_by: item.user_id,
      created_at: now,
      updated_at: now,
    };
    q.insertTask(task);
    tools.schedule(TASK_ADVANCE_STEP, task.id, w.delayFor(item));
  });
}

/** Step `task.advance`: PENDING -> IN_PROGRESS -> COMPLETED (a catalog record) or FAILED. */
function advance({ ctx, q, w }: Fulfilment, taskId: string, tools: StepTools): void {
  const task = q.task(taskId);
  if (!task) return;
  const item = q.item(task.order_item_id)!;
  const now = ctx.nowUs();
  if (task.status === 'PENDING') {
    w.setTask.run({
      ...task,
      status: 'IN_PROGRESS',
      delivery_status: 'IN_PROGRESS',
      updated_at: now,
    });
    tools.schedule(TASK_ADVANCE_STEP, taskId, w.delayFor(item));
    return;
  }
  if (task.status !== 'IN_PROGRESS') return;
  const scene =
    task.type === 'ARCHIVE'
      ? getArchiveScenes(ctx.sqlite, [task.scene_id!]).get(task.scene_id!)
      : undefined;
  const failure = taskShouldFail(item.name, task.position)
    ? task.type === 'ARCHIVE'
      ? 'the scene could not be processed'
      : 'no acquisition met the constraints in the window'
    : task.type === 'ARCHIVE' && !scene
      ? `scene ${task.scene_id} is no longer in the archive`
      : null;
  if (failure !== null) {
    w.setTask.run({
      ...task,
      status: 'FAILED',
      delivery_status: 'FAILED',
      failure_reason: failure,
      updated_at: now,
    });
  } else {
    const catalogId = newId('cat');
    const recordCtx = { item, task, catalogId, nowUs: now };
    const record =
      task.type === 'ARCHIVE'
        ? archiveRecord({ ...recordCtx, scene: scene! })
        : taskingRecord(recordCtx, satelliteById(item.satellite_id)!);
    w.insertCatalogRecord(record, {
      orgId: item.org_id,
      orderId: item.order_id,
      orderItemId: item.id,
    });
    w.setTask.run({
      ...task,
      status: 'COMPLETED',
      delivery_status: 'SUCCESSFUL',
      catalog_id: catalogId,
      updated_at: now,
    });
    if (task.type !== 'ARCHIVE') {
      // A tasking item's images are its acquisitions, added as they arrive.
      const images = JSON.parse(item.images_json) as unknown[];
      images.push({
        item_id: record.details.id,
        geometry: record.details.geometry,
        catalog_id: catalogId,
      });
      item.images_json = JSON.stringify(images);
      w.setItem.run({ ...item, updated_at: now });
    }
  }
  w.settleItem(q.item(item.id)!, now);
}

/** The worker gave up on the payment: like a declined payment, with the reason on each item. */
function giveUpPayment({ ctx, q, w }: Fulfilment, orderId: string, reason: string): void {
  const order = q.order(orderId);
  if (!order || (order.status !== 'UNPAID' && order.status !== 'PAYMENT_IN_PROGRESS')) return;
  const now = ctx.nowUs();
  w.setOrder.run({ ...order, status: 'UNPAID', updated_at: now });
  for (const item of q.itemsOfOrder(orderId)) {
    if (item.status !== 'DRAFT') continue;
    w.setItem.run({ ...item, status: 'CANCELLED', updated_at: now });
    const notes = JSON.parse(item.validation_errors_json) as unknown[];
    notes.push({ code: 'PAYMENT_FAILED', field: 'status', message: reason });
    w.noteOnItem.run({ id: item.id, validation_errors_json: JSON.stringify(notes) });
  }
}

/** The worker gave up on a task: FAILED with the reason, and its item settles (refund). */
function giveUpTask({ ctx, q, w }: Fulfilment, taskId: string, reason: string): void {
  const task = q.task(taskId);
  if (!task || (task.status !== 'PENDING' && task.status !== 'IN_PROGRESS')) return;
  const now = ctx.nowUs();
  w.setTask.run({
    ...task,
    status: 'FAILED',
    delivery_status: 'FAILED',
    failure_reason: reason,
    updated_at: now,
  });
  w.settleItem(q.item(task.order_item_id)!, now);
}
