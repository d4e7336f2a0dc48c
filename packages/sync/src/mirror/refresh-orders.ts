/**
 * Follows the orders this client sent until they settle (issue 26): an order is created UNPAID
 * with DRAFT items, and the service takes the payment and fulfils the items afterwards; without
 * this the mirror kept "Unpaid" and "Draft" until the next sync (and a delivery waiting for the
 * items waited for that sync too).
 *
 * An order is followed while it is the remote id of a sent outbox entry and is not settled: its
 * payment is in progress, or one of its items has not ended (`orderItemDeliverability` `wait`:
 * DRAFT, ACTIVE, or a status it does not know). Orders pulled by a sync and never sent from here
 * are not followed (the next sync reads them), so a long-running recurring order of someone
 * else's costs nothing.
 *
 * Two reads, both in one request for every order followed: the items through the spec's list
 * (4.1, filtered by `order_ids`, which carries their tasks), and each order's payment status
 * through `GET /v0/orders/{id}` (the provider's read, and ours as an extension); a service
 * without that read (404) keeps the stored order and its items still move.
 */
import { allItems, type EoClient } from '@eo/api-client';
import { LIMITS, orderItemDeliverability } from '@eo/domain';
import type Database from 'better-sqlite3';
import { filterOrderItems } from '../search/local-filters';
import { idOf, str, type WireRecord } from './rows';
import { makeMirrorWriters } from './writers';

export interface RefreshOrdersReport {
  readonly checked: number;
  /** Orders whose stored order or items changed. */
  readonly updated: number;
  /** Orders the service did not give back (no read offered, or unknown there). */
  readonly unavailable: number;
}

/** An order whose payment or items may still change. */
function unsettled(order: WireRecord, items: readonly WireRecord[]): boolean {
  if (str(order, 'status')?.toUpperCase() === 'PAYMENT_IN_PROGRESS') return true;
  const own = items.length > 0 ? items : embeddedItems(order);
  if (own.length === 0) return true;
  return own.some((i) => orderItemDeliverability(str(i, 'status')) === 'wait');
}

function embeddedItems(order: WireRecord): WireRecord[] {
  const list = order['order_items'];
  return Array.isArray(list)
    ? list.filter((i): i is WireRecord => typeof i === 'object' && i !== null)
    : [];
}

/** The mirrored orders this client sent that are not settled, oldest first. */
export function unfinishedOrders(sqlite: Database.Database): WireRecord[] {
  const rows = sqlite
    .prepare(
      `SELECT o.json FROM mirror_orders o
       WHERE o.id IN (SELECT remote_id FROM outbox WHERE kind = 'order' AND state = 'sent')
       ORDER BY o.created_at_us, o.id`,
    )
    .pluck()
    .all() as string[];
  const orders = rows.map((json) => JSON.parse(json) as WireRecord);
  if (orders.length === 0) return [];
  const items = itemsByOrder(sqlite, orders);
  return orders.filter((o) => unsettled(o, items.get(idOf(o, 'id') ?? '') ?? []));
}

function itemsByOrder(
  sqlite: Database.Database,
  orders: readonly WireRecord[],
): Map<string, WireRecord[]> {
  const ids = orders.map((o) => idOf(o, 'id')).filter((id): id is string => id !== null);
  const byOrder = new Map<string, WireRecord[]>();
  for (const item of filterOrderItems<WireRecord>(sqlite, { orderIds: ids })) {
    const orderId = idOf(item, 'order_id') ?? '';
    byOrder.set(orderId, [...(byOrder.get(orderId) ?? []), item]);
  }
  return byOrder;
}

export async function refreshOrders(options: {
  readonly sqlite: Database.Database;
  readonly client: EoClient;
  readonly signal?: AbortSignal | undefined;
  /** JSON with sorted keys: a record read again along another path compares equal. */
  readonly canonical: (value: unknown) => string;
}): Promise<RefreshOrdersReport> {
  const { sqlite, client, signal, canonical } = options;
  // At most one filter's worth of orders per read (the oldest first; the rest next time).
  const followed = unfinishedOrders(sqlite).slice(0, LIMITS.maxIdsPerFilter);
  if (followed.length === 0) return { checked: 0, updated: 0, unavailable: 0 };
  const writers = makeMirrorWriters(sqlite);
  const passOf = sqlite.prepare('SELECT pass_id FROM sync_state WHERE resource = ?').pluck();
  // Stamped with the resource's current pass, as the outbox's writes are (outbox-mirror.ts).
  const pass = (resource: 'orders' | 'orderItems') =>
    (passOf.get(resource) as string | null | undefined) ?? '';
  const ids = followed.map((o) => idOf(o, 'id')!);
  const storedItems = itemsByOrder(sqlite, followed);

  const items: WireRecord[] = [];
  const query = { order_ids: ids.join(',') };
  for await (const item of allItems(
    client.pages.orderItems(query, { signal, pageSize: LIMITS.maxLimit }),
  ))
    items.push(item as WireRecord);
  const readItems = new Map<string, WireRecord[]>();
  for (const item of items) {
    const orderId = idOf(item, 'order_id') ?? '';
    readItems.set(orderId, [...(readItems.get(orderId) ?? []), item]);
  }

  let updated = 0;
  let unavailable = 0;
  for (const before of followed) {
    const id = idOf(before, 'id')!;
    const after = (await client.extensions.getOrder(id, { signal })) as WireRecord | null;
    const fresh = readItems.get(id) ?? [];
    // The create's answer has no `tasks` where the list has `[]`: not a change.
    const stored = new Map(
      (storedItems.get(id) ?? []).map((i) => [idOf(i, 'id'), canonical({ tasks: [], ...i })]),
    );
    const changedItems = fresh.filter((i) => stored.get(idOf(i, 'id')) !== canonical(i));
    const orderChanged = after !== null && canonical(after) !== canonical(before);
    if (after === null && fresh.length === 0) unavailable++;
    if (!orderChanged && changedItems.length === 0) continue;
    sqlite.transaction(() => {
      if (orderChanged) writers.orders.write([after], pass('orders'));
      if (changedItems.length > 0) writers.orderItems.write(changedItems, pass('orderItems'));
    })();
    updated++;
  }
  return { checked: followed.length, updated, unavailable };
}
