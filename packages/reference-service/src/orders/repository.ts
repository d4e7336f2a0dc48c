/**
 * SQL of orders, order items and tasks, scoped to an organisation. Hot reads use prepared
 * statements made once per database (`makeOrderQueries`).
 */
import type { ListOrderItemsQuery } from '@eo/domain';
import { LIMITS, parseInstantRange, parseNumberRange } from '@eo/domain';
import type Database from 'better-sqlite3';
import {
  ORDER_COLUMNS,
  ORDER_ITEM_COLUMNS,
  TASK_COLUMNS,
  insertSql,
  type OrderItemRow,
  type OrderRow,
  type TaskRow,
} from './rows';
import { orderToWire } from './wire';
import { makeOrdersPages } from './orders-page';

const ORDER_BY = 'ORDER BY created_at, id';
/** Rows grouped by a key, each group in query order. */
function groupBy<T>(rows: readonly T[], key: (r: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}

export function makeOrderQueries(
  sqlite: Database.Database,
  maxPageBytes: number = LIMITS.maxListPageBytes,
  cacheBytes: number = 32 * 1024 * 1024,
) {
  const insertOrder = sqlite.prepare(insertSql('orders', ORDER_COLUMNS));
  const insertItem = sqlite.prepare(insertSql('order_items', ORDER_ITEM_COLUMNS));
  const insertTask = sqlite.prepare(insertSql('tasks', TASK_COLUMNS));
  const orderById = sqlite.prepare<[string], OrderRow>('SELECT * FROM orders WHERE id = ?');
  const itemById = sqlite.prepare<[string], OrderItemRow>('SELECT * FROM order_items WHERE id = ?');
  const itemsOfOrder = sqlite.prepare<[string], OrderItemRow>(
    'SELECT * FROM order_items WHERE order_id = ? ORDER BY position',
  );
  const taskById = sqlite.prepare<[string], TaskRow>('SELECT * FROM tasks WHERE id = ?');
  const tasksOfItem = sqlite.prepare<[string], TaskRow>(
    'SELECT * FROM tasks WHERE order_item_id = ? ORDER BY position',
  );
  const bumpListVersion = sqlite.prepare(
    `INSERT INTO order_list_versions (org_id, version) VALUES (?, 1)
     ON CONFLICT (org_id) DO UPDATE SET version = version + 1`,
  );
  const setOrderWire = sqlite.prepare(
    'UPDATE orders SET wire_json = ?, wire_version = wire_version + 1 WHERE id = ?',
  );
  const tasksOfItems = sqlite.prepare<[string], TaskRow>(
    `SELECT * FROM tasks WHERE order_item_id IN (SELECT value FROM json_each(?)) ORDER BY order_item_id, position`,
  );

  return {
    insertOrder(r: OrderRow): void {
      insertOrder.run(r);
      bumpListVersion.run(r.org_id);
    },
    insertItem: (r: OrderItemRow) => insertItem.run(r),
    insertTask: (r: TaskRow) => insertTask.run(r),
    order: (id: string) => orderById.get(id),
    item: (id: string) => itemById.get(id),
    itemsOfOrder: (orderId: string) => itemsOfOrder.all(orderId),
    task: (id: string) => taskById.get(id),
    tasksOfItem: (itemId: string) => tasksOfItem.all(itemId),

    /** Tasks of the given items, by item id. */
    tasksByItem(itemIds: readonly string[]): Map<string, TaskRow[]> {
      if (itemIds.length === 0) return new Map();
      return groupBy(tasksOfItems.all(JSON.stringify(itemIds)), (r) => r.order_item_id);
    },

    /** GET /v0/orders as bytes (orders-page.ts). */
    ordersPage: makeOrdersPages(sqlite, maxPageBytes, cacheBytes),

    /** Re-renders an order's stored wire JSON; call after any change to it or its items. */
    renderOrder(orderId: string): void {
      const order = orderById.get(orderId);
      if (!order) return;
      setOrderWire.run(
        Buffer.from(JSON.stringify(orderToWire(order, itemsOfOrder.all(orderId)))),
        orderId,
      );
      bumpListVersion.run(order.org_id);
    },

    listOrderItems(orgId: string, q: ListOrderItemsQuery): { rows: OrderItemRow[]; total: number } {
      const where = ['org_id = @org_id'];
      const params: Record<string, string | number> = {
        org_id: orgId,
        limit: q.limit,
        offset: q.offset,
      };
      const inList = (column: string, name: string, values: readonly string[] | undefined) => {
        if (!values) return;
        where.push(`${column} IN (SELECT value FROM json_each(@${name}))`);
        params[name] = JSON.stringify(values);
      };
      const range = (
        column: string,
        name: string,
        r: { start: number | null; end: number | null },
      ) => {
        if (r.start !== null) {
          where.push(`${column} >= @${name}_start`);
          params[`${name}_start`] = r.start;
        }
        if (r.end !== null) {
          where.push(`${column} <= @${name}_end`);
          params[`${name}_end`] = r.end;
        }
      };
      if (q.user_id !== undefined) {
        where.push('user_id = @user_id');
        params.user_id = q.user_id;
      }
      if (q.created_by !== undefined) {
        where.push('created_by = @created_by');
        params.created_by = q.created_by;
      }
      inList('type', 'type', q.type);
      inList('status', 'status', q.status);
      inList('order_id', 'order_ids', q.order_ids);
      inList('project_id', 'project_ids', q.project_ids);
      inList('id', 'ids', q.ids);
      if (q.created_at !== undefined) {
        const r = parseInstantRange(q.created_at);
        if (r.ok) range('created_at', 'created_at', r.value);
      }
      if (q.area !== undefined) {
        const r = parseNumberRange(q.area);
        if (r.ok) range('area', 'area', r.value);
      }
      const clause = where.join(' AND ');
      const total = sqlite
        .prepare<[typeof params], { n: number }>(
          `SELECT count(*) AS n FROM order_items WHERE ${clause}`,
        )
        .get(params)!.n;
      const rows = sqlite
        .prepare<[typeof params], OrderItemRow>(
          `SELECT * FROM order_items WHERE ${clause} ${ORDER_BY} LIMIT @limit OFFSET @offset`,
        )
        .all(params);
      return { rows, total };
    },
  };
}

export type OrderQueries = ReturnType<typeof makeOrderQueries>;
