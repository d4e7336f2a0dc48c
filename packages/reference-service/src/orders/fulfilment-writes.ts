/**
 * The writes fulfilment makes (prepared once per service) and the two settling rules that
 * follow a change: an item whose tasks all ended, and an order whose items were all refunded.
 */
import type { Instant } from '@eo/domain';
import { makeCatalogInserter } from '../catalog/repository';
import type { AppContext } from '../context';
import { cents } from './pricing';
import type { OrderQueries } from './repository';
import type { OrderItemRow } from './rows';

/** Faster delivery speeds move their tasks faster (a fraction of the step delay). */
const SPEED_FACTOR: Record<string, number> = { STANDARD: 1, PRIORITY: 0.5, EXPRESS: 0.25 };

export type FulfilmentWrites = ReturnType<typeof fulfilmentWrites>;

export function fulfilmentWrites(ctx: AppContext, q: OrderQueries) {
  const { sqlite } = ctx;
  const setOrder = sqlite.prepare(
    `UPDATE orders SET status = @status, paid_at = @paid_at, transaction_id = @transaction_id,
       refunded_amount = @refunded_amount, updated_at = @updated_at WHERE id = @id`,
  );
  const setItem = sqlite.prepare(
    `UPDATE order_items SET status = @status, payment_status = @payment_status,
       transaction_id = @transaction_id, refunded_amount = @refunded_amount, images_json = @images_json,
       updated_at = @updated_at WHERE id = @id`,
  );
  const setTask = sqlite.prepare(
    `UPDATE tasks SET status = @status, delivery_status = @delivery_status, catalog_id = @catalog_id,
       failure_reason = @failure_reason, updated_at = @updated_at WHERE id = @id`,
  );
  const noteOnItem = sqlite.prepare(
    'UPDATE order_items SET validation_errors_json = @validation_errors_json WHERE id = @id',
  );

  /** After an item changed: an order whose every item was refunded in full is REFUND. */
  function settleOrder(orderId: string, now: Instant): void {
    const order = q.order(orderId)!;
    const items = q.itemsOfOrder(orderId);
    const refunded = cents(items.reduce((s, i) => s + i.refunded_amount, 0));
    const allRefunded = items.every((i) => i.payment_status === 'REFUND');
    setOrder.run({
      ...order,
      status: order.status === 'PAID' && allRefunded ? 'REFUND' : order.status,
      refunded_amount: refunded,
      updated_at: now,
    });
  }

  /** After a task ended: an item whose tasks all ended gets its final status and refund. */
  function settleItem(item: OrderItemRow, now: Instant): void {
    const tasks = q.tasksOfItem(item.id);
    if (tasks.some((t) => t.status !== 'COMPLETED' && t.status !== 'FAILED')) return;
    const failed = tasks.filter((t) => t.status === 'FAILED').length;
    const [status, payment] =
      failed === 0
        ? ['COMPLETED', 'PAID']
        : failed === tasks.length
          ? ['FAILED', 'REFUND']
          : ['PARTIALLY_COMPLETED', 'PARTIAL-REFUND'];
    setItem.run({
      ...item,
      status,
      payment_status: payment,
      refunded_amount: cents((item.final_amount * failed) / tasks.length),
      updated_at: now,
    });
    settleOrder(item.order_id, now);
  }

  return {
    setOrder,
    setItem,
    setTask,
    noteOnItem,
    insertCatalogRecord: makeCatalogInserter(sqlite),
    settleOrder,
    settleItem,
    /** How long until a task of this item advances. */
    delayFor: (item: OrderItemRow) =>
      Math.round(ctx.config.stepDelayMs * (SPEED_FACTOR[item.delivery_speed] ?? 1)),
  };
}
