/**
 * Writers of the mirror: per resource, `write` upserts a batch of wire records stamped with the
 * pass that saw them, and `sweep` removes what a complete pass did not see. Raw prepared
 * statements (hot path); callers wrap a batch in one transaction.
 */
import { makeCatalogDeleter, makeCatalogUpserter, type CatalogRecordOut } from '@eo/catalog-store';
import type Database from 'better-sqlite3';
import { instantUs, MIRROR_ORG, str, type WireRecord } from './rows';

export type ResourceName = 'orders' | 'orderItems' | 'aois' | 'assets' | 'indices' | 'catalogs';

export interface MirrorWriter {
  write(items: readonly unknown[], passId: string): void;
  /** Ids of rows no pass since `passId` saw: what `sweep` would remove. */
  unseen?(passId: string): string[];
  /** Removes rows no pass since `passId` saw; returns how many. */
  sweep(passId: string): number;
}

/** An upsert of one table: a column list and how to read each value from a record. */
function tableWriter(
  sqlite: Database.Database,
  table: string,
  key: string,
  columns: Record<string, (r: WireRecord) => unknown>,
  afterWrite?: (r: WireRecord) => void,
): MirrorWriter {
  const names = [...Object.keys(columns), 'pass_id', 'json'];
  const upsert = sqlite.prepare(
    `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((n) => `@${n}`).join(', ')})
     ON CONFLICT(${key}) DO UPDATE SET ${names
       .filter((n) => n !== key)
       .map((n) => `${n} = excluded.${n}`)
       .join(', ')}`,
  );
  const sweep = sqlite.prepare(`DELETE FROM ${table} WHERE pass_id <> ?`);
  const unseen = sqlite.prepare(`SELECT ${key} AS id FROM ${table} WHERE pass_id <> ?`);
  return {
    unseen: (passId) => (unseen.all(passId) as Array<{ id: string }>).map((r) => r.id),
    write(items, passId) {
      for (const item of items) {
        const r = item as WireRecord;
        const row: Record<string, unknown> = { pass_id: passId, json: JSON.stringify(r) };
        for (const [name, read] of Object.entries(columns)) row[name] = read(r);
        upsert.run(row);
        afterWrite?.(r);
      }
    },
    sweep: (passId) => sweep.run(passId).changes,
  };
}

export function makeMirrorWriters(sqlite: Database.Database): Record<ResourceName, MirrorWriter> {
  const dropTasks = sqlite.prepare('DELETE FROM mirror_tasks WHERE order_item_id = ?');
  const putTask = sqlite.prepare(
    'INSERT OR REPLACE INTO mirror_tasks (task_id, order_item_id, order_id) VALUES (?, ?, ?)',
  );
  const orphanTasks = sqlite.prepare(
    'DELETE FROM mirror_tasks WHERE order_item_id NOT IN (SELECT id FROM mirror_order_items)',
  );
  // Catalog search filters records by order / order item through their task (as the service does).
  const relinkCatalog = sqlite.prepare(
    `UPDATE catalog_records SET order_id = t.order_id, order_item_id = t.order_item_id
     FROM mirror_tasks t
     WHERE t.task_id = catalog_records.task_id
       AND (catalog_records.order_id IS NOT t.order_id OR catalog_records.order_item_id IS NOT t.order_item_id)`,
  );
  const unlinkCatalog = sqlite.prepare(
    `UPDATE catalog_records SET order_id = NULL, order_item_id = NULL
     WHERE order_item_id IS NOT NULL
       AND (task_id IS NULL OR task_id NOT IN (SELECT task_id FROM mirror_tasks))`,
  );
  const linkOf = sqlite.prepare(
    'SELECT order_id, order_item_id FROM mirror_tasks WHERE task_id = ?',
  );

  const orderItems = tableWriter(
    sqlite,
    'mirror_order_items',
    'id',
    {
      id: (r) => str(r, 'id'),
      order_id: (r) => str(r, 'order_id') ?? '',
      name: (r) => str(r, 'name'),
      project_id: (r) => str(r, 'project_id'),
      type: (r) => str(r, 'type') ?? '',
      status: (r) => str(r, 'status') ?? '',
      created_at_us: (r) => instantUs(r, 'created_at'),
    },
    (r) => {
      const id = str(r, 'id')!;
      const orderId = str(r, 'order_id') ?? '';
      dropTasks.run(id);
      for (const t of Array.isArray(r.tasks) ? (r.tasks as WireRecord[]) : []) {
        const taskId = t && str(t, 'id');
        if (taskId) putTask.run(taskId, id, orderId);
      }
    },
  );

  const upsertCatalog = makeCatalogUpserter(sqlite);
  const deleteCatalog = makeCatalogDeleter(sqlite);
  const markSeen = sqlite.prepare(
    'INSERT OR REPLACE INTO mirror_catalog_seen (record_id, pass_id) VALUES (?, ?)',
  );
  const unseen = sqlite.prepare('SELECT record_id FROM mirror_catalog_seen WHERE pass_id <> ?');
  const dropUnseen = sqlite.prepare('DELETE FROM mirror_catalog_seen WHERE pass_id <> ?');
  const catalogs: MirrorWriter = {
    unseen: (passId) =>
      (unseen.all(passId) as Array<{ record_id: string }>).map((r) => r.record_id),
    write(items, passId) {
      for (const item of items) {
        const record = item as CatalogRecordOut;
        const link = record.task_id
          ? (linkOf.get(record.task_id) as { order_id: string; order_item_id: string } | undefined)
          : undefined;
        upsertCatalog(record, {
          orgId: MIRROR_ORG,
          orderId: link?.order_id ?? null,
          orderItemId: link?.order_item_id ?? null,
        });
        markSeen.run(record.id, passId);
      }
    },
    sweep(passId) {
      const ids = (unseen.all(passId) as Array<{ record_id: string }>).map((r) => r.record_id);
      dropUnseen.run(passId);
      return deleteCatalog(ids);
    },
  };

  return {
    orders: tableWriter(sqlite, 'mirror_orders', 'id', {
      id: (r) => str(r, 'id'),
      status: (r) => str(r, 'status') ?? '',
      user_id: (r) => str(r, 'user_id'),
      created_at_us: (r) => instantUs(r, 'created_at'),
      updated_at_us: (r) => instantUs(r, 'updated_at'),
    }),
    orderItems: {
      unseen: (passId) => orderItems.unseen!(passId),
      write(items, passId) {
        orderItems.write(items, passId);
        relinkCatalog.run();
      },
      sweep(passId) {
        const n = orderItems.sweep(passId);
        orphanTasks.run();
        unlinkCatalog.run();
        return n;
      },
    },
    aois: tableWriter(sqlite, 'mirror_aois', 'aoi_id', {
      aoi_id: (r) => str(r, 'aoi_id'),
      name: (r) => str(r, 'name'),
      project_id: (r) => str(r, 'project_id'),
      status: (r) => str(r, 'status') ?? '',
      created_at_us: (r) => instantUs(r, 'created_at'),
      updated_at_us: (r) => instantUs(r, 'updated_at'),
    }),
    assets: tableWriter(sqlite, 'mirror_assets', 'id', {
      id: (r) => str(r, 'id'),
      aoi_id: (r) => str(r, 'aoi_id') ?? '',
      asset_type: (r) => str(r, 'asset_type'),
      status: (r) => str(r, 'status'),
      created_at_us: (r) => instantUs(r, 'created_at'),
    }),
    indices: tableWriter(sqlite, 'mirror_indices', 'id', {
      id: (r) => str(r, 'id'),
      name: (r) => str(r, 'name'),
      type: (r) => str(r, 'type'),
      satellite_id: (r) => str(r, 'satellite_id'),
    }),
    catalogs,
  };
}
