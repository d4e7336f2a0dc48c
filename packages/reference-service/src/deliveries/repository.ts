/** SQL of deliveries, and the lookups a delivery request needs, scoped to an organisation. */
import type { SqlRow } from '@eo/catalog-store';
import type { deliveries } from './schema';
import type { Delivery, ListDeliveriesQuery } from '@eo/domain';
import type Database from 'better-sqlite3';
import type { z } from 'zod';
import { toIso } from '../time';

/** Built in code before it is inserted: `seq` is the database's. */
export type DeliveryRow = Omit<SqlRow<typeof deliveries>, 'seq'>;

export type DeliveryOut = z.input<typeof Delivery>;

export function deliveryToWire(d: DeliveryRow): DeliveryOut {
  return {
    delivery_id: d.id,
    catalog_id: d.catalog_id,
    task_id: d.task_id,
    order_item_id: d.order_item_id,
    cloud_delivery: { config: d.cloud_config, path: d.cloud_path },
    status: d.status,
    reason: d.reason,
    target_path: d.target_path,
    created_at: toIso(d.created_at),
    updated_at: toIso(d.updated_at),
    created_by: d.created_by,
    updated_by: d.updated_by,
  };
}

export interface CatalogRef {
  id: string;
  task_id: string | null;
  record_json: string;
}

export interface TaskRef {
  id: string;
  status: string;
  catalog_id: string | null;
  failure_reason: string | null;
}

export function makeDeliveryQueries(sqlite: Database.Database) {
  const insert = sqlite.prepare(
    `INSERT INTO deliveries (id, org_id, catalog_id, task_id, order_item_id, cloud_config, cloud_path, status,
       reason, target_path, created_by, updated_by, created_at, updated_at)
     VALUES (@id, @org_id, @catalog_id, @task_id, @order_item_id, @cloud_config, @cloud_path, @status,
       @reason, @target_path, @created_by, @updated_by, @created_at, @updated_at)`,
  );
  const byId = sqlite.prepare<[string], DeliveryRow>('SELECT * FROM deliveries WHERE id = ?');
  const update = sqlite.prepare(
    `UPDATE deliveries SET status = @status, reason = @reason, catalog_id = @catalog_id,
       updated_at = @updated_at WHERE id = @id`,
  );
  const catalog = sqlite.prepare<[string, string], CatalogRef>(
    'SELECT id, task_id, record_json FROM catalog_records WHERE id = ? AND org_id = ?',
  );
  const item = sqlite.prepare<[string, string], { id: string; status: string }>(
    'SELECT id, status FROM order_items WHERE id = ? AND org_id = ?',
  );
  const tasksOfItem = sqlite.prepare<[string], TaskRef>(
    'SELECT id, status, catalog_id, failure_reason FROM tasks WHERE order_item_id = ? ORDER BY position',
  );
  const task = sqlite.prepare<[string], TaskRef & { order_item_id: string }>(
    'SELECT id, status, catalog_id, failure_reason, order_item_id FROM tasks WHERE id = ?',
  );
  // Each filter is one id or NULL (no filter); the (org_id, created_at, id) index drives.
  const list = sqlite.prepare<[Record<string, string | null>], DeliveryRow>(
    `SELECT * FROM deliveries WHERE org_id = @org
       AND (@delivery_id IS NULL OR id = @delivery_id)
       AND (@catalog_id IS NULL OR catalog_id = @catalog_id)
       AND (@task_id IS NULL OR task_id = @task_id)
       AND (@order_item_id IS NULL OR order_item_id = @order_item_id)
     ORDER BY created_at, id`,
  );
  return {
    insert: (d: DeliveryRow) => insert.run(d),
    list: (orgId: string, f: ListDeliveriesQuery) =>
      list.all({
        org: orgId,
        delivery_id: f.delivery_id ?? null,
        catalog_id: f.catalog_id ?? null,
        task_id: f.task_id ?? null,
        order_item_id: f.order_item_id ?? null,
      }),
    get: (id: string) => byId.get(id),
    update: (d: DeliveryRow) => update.run(d),
    catalogRecord: (id: string, orgId: string) => catalog.get(id, orgId),
    orderItem: (id: string, orgId: string) => item.get(id, orgId),
    tasksOfItem: (itemId: string) => tasksOfItem.all(itemId),
    task: (id: string) => task.get(id),
  };
}

export type DeliveryQueries = ReturnType<typeof makeDeliveryQueries>;
