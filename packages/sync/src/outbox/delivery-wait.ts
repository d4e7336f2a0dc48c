/**
 * A delivery of a queued order's items (`local:<order>#<n>`) is made from the items' completed
 * tasks: sent as soon as the order exists, the service fails it ("has no completed task"). So,
 * once its order is sent, it waits until the mirror (refreshed by sync, or by the create's own
 * answer) shows every such item deliverable (`orderItemDeliverability` of `@eo/domain`).
 *
 * An item the mirror does not hold is not guessed about: the delivery goes, as before.
 */
import { orderItemDeliverability } from '@eo/domain';
import type Database from 'better-sqlite3';
import { filterOrderItems } from '../search/local-filters';
import { isLocalId, LOCAL_PREFIX } from './references';
import type { OutboxEntry } from './store';

export const WAITING_FOR_ITEMS = 'waiting for order items to complete';

/** `go`: send it; `wait` / `never`: with the message saying which items and why. */
export type DeliveryReadiness = { go: true } | { go: false; never: boolean; message: string };

export function makeDeliveryReadiness(db: Database.Database) {
  return function readiness(
    entry: OutboxEntry,
    sent: (entryId: string) => OutboxEntry,
  ): DeliveryReadiness {
    const itemIds: string[] = [];
    const orderIds = new Set<string>();
    for (const d of (entry.input.deliveries as Array<{ order_item_ids?: unknown[] }>) ?? []) {
      for (const ref of d.order_item_ids ?? []) {
        if (!isLocalId(ref)) continue;
        const [entryId, n] = ref.slice(LOCAL_PREFIX.length).split('#');
        const order = sent(entryId!);
        const items = (order.response as { order_items?: Array<{ id?: unknown }> } | null)
          ?.order_items;
        const id = items?.[Number(n)]?.id;
        if (typeof id !== 'string') continue; // resolving it will say what is wrong
        itemIds.push(id);
        if (order.remoteId) orderIds.add(order.remoteId);
      }
    }
    if (itemIds.length === 0) return { go: true };
    const mirrored = new Map(
      filterOrderItems<{ id: string; status?: string | null }>(db, {
        orderIds: [...orderIds],
      }).map((r) => [r.id, r.status ?? null]),
    );
    const pending: string[] = [];
    const ended: string[] = [];
    for (const id of new Set(itemIds)) {
      if (!mirrored.has(id)) continue;
      const status = mirrored.get(id);
      const state = orderItemDeliverability(status);
      if (state === 'wait') pending.push(`${id} (${status ?? 'no status'})`);
      if (state === 'never') ended.push(`${id} (${status})`);
    }
    if (ended.length > 0) {
      return {
        go: false,
        never: true,
        message: `order item ${ended.join(', ')} ended without anything to deliver: edit or cancel this delivery`,
      };
    }
    if (pending.length > 0) {
      return { go: false, never: false, message: `${WAITING_FOR_ITEMS}: ${pending.join(', ')}` };
    }
    return { go: true };
  };
}
