/**
 * Whether an order item can be delivered yet. A delivery of an order item is made from its
 * completed task(s): asked for before the item completes, the service fails it ("has no
 * completed task"). The client's outbox holds such a delivery until the mirror shows the item
 * ready. Statuses of every service profile (ours and the provider's, `AnyOrderItemStatus`).
 */
const DELIVERABLE: ReadonlySet<string> = new Set([
  'COMPLETED',
  'PARTIALLY_COMPLETED',
  'FULFILLED',
  'PARTIALLY_FULFILLED',
]);
const NEVER_DELIVERABLE: ReadonlySet<string> = new Set(['FAILED', 'CANCELLED']);

/** `ready`: deliverable now; `never`: it ended without a task to deliver; `wait`: not yet. */
export type OrderItemDeliverability = 'ready' | 'never' | 'wait';

export function orderItemDeliverability(
  status: string | null | undefined,
): OrderItemDeliverability {
  const s = typeof status === 'string' ? status.toUpperCase() : '';
  if (DELIVERABLE.has(s)) return 'ready';
  if (NEVER_DELIVERABLE.has(s)) return 'never';
  return 'wait';
}
