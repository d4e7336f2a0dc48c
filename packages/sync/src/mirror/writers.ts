/**
 * Writers of the mirror: per resource, `write` upserts a batch of wire records stamped with the
 * pass that saw them, and `sweep` removes what a complete pass did not see. Raw prepared
 * statements (hot path); callers wrap a batch in one transaction.
 *
 * A writer degrades per record, never per batch: a record whose indexed fields cannot be read
 * is stored anyway (NULL columns, no R*Tree entry) and flagged in `mirror_unindexed`; only a
 * record with no usable id (or whose write fails) is skipped. Both are returned as issues naming
 * the resource, the record and the field; `write` itself never throws for a record's content.
 */
import { readId } from '@eo/domain';
import type Database from 'better-sqlite3';
import { makeCatalogWriter } from './catalog-writer';
import { normSql, quote, readColumn, type ColumnKind, type WireRecord } from './rows';
import {
  isRecord,
  reporter,
  unindexedOf,
  type MirrorWriter,
  type RecordIssue,
  type ResourceName,
} from './writer-parts';

export type { MirrorWriter, PreparedRecord, RecordIssue, ResourceName } from './writer-parts';

interface Column {
  readonly field: string;
  readonly kind: ColumnKind;
  /** For NOT NULL columns: the value stored when the field is missing or unreadable. */
  readonly fallback?: string;
}

/** An upsert of one table: its key and indexed columns, each read from a field of the record. */
function tableWriter(
  sqlite: Database.Database,
  resource: ResourceName,
  table: string,
  key: { column: string; field: string },
  columns: Record<string, Column>,
  afterWrite?: (r: WireRecord, id: string) => void,
): MirrorWriter {
  const names = [key.column, ...Object.keys(columns), 'pass_id', 'json'];
  const upsert = sqlite.prepare(
    `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((n) => `@${n}`).join(', ')})
     ON CONFLICT(${key.column}) DO UPDATE SET ${names
       .filter((n) => n !== key.column)
       .map((n) => `${n} = excluded.${n}`)
       .join(', ')}`,
  );
  const sweep = sqlite.prepare(`DELETE FROM ${table} WHERE pass_id <> ?`);
  const unseen = sqlite.prepare(`SELECT ${key.column} AS id FROM ${table} WHERE pass_id <> ?`);
  const variants = sqlite
    .prepare(
      `SELECT ${key.column} FROM ${table} WHERE pass_id <> ?
       AND ${normSql(key.column)} IN (SELECT value FROM json_each(?))`,
    )
    .pluck();
  const readJson = sqlite.prepare(`SELECT json FROM ${table} WHERE ${key.column} = ?`).pluck();
  const remove = sqlite.prepare(`DELETE FROM ${table} WHERE ${key.column} = ?`);
  const unindexed = unindexedOf(sqlite, resource, table, key.column);
  const entries = Object.entries(columns);
  return {
    unseen: (passId) => (unseen.all(passId) as Array<{ id: string }>).map((r) => r.id),
    variantsOf: (passId, norms) => variants.all(passId, JSON.stringify(norms)) as string[],
    read(id) {
      const json = readJson.get(id) as string | undefined;
      return json === undefined ? undefined : (JSON.parse(json) as unknown);
    },
    remove(ids) {
      let n = 0;
      for (const id of ids) {
        n += remove.run(id).changes;
        unindexed.forget(id);
      }
      return n;
    },
    write(items, passId) {
      const issues: RecordIssue[] = [];
      items.forEach((item, index) => {
        const r = isRecord(item) ? item : {};
        const id = readId(r[key.field]);
        const issue = reporter(issues, resource, id, index);
        if (id === null) {
          const what = isRecord(item)
            ? `no usable id (received ${quote(r[key.field])})`
            : `not an object (received ${quote(item)})`;
          issue('skipped', key.field, `${what}; the record was not stored`);
          return;
        }
        const row: Record<string, unknown> = {
          [key.column]: id,
          pass_id: passId,
          json: JSON.stringify(item),
        };
        const unread: string[] = [];
        for (const [name, c] of entries) {
          const { value, problem } = readColumn(r, c.field, c.kind);
          row[name] = value ?? c.fallback ?? null;
          if (problem) {
            unread.push(c.field);
            issue('not-indexed', c.field, problem);
          }
        }
        try {
          upsert.run(row);
          afterWrite?.(r, id);
          unindexed.mark(id, unread);
        } catch (e) {
          issue('skipped', '', `could not be stored: ${e instanceof Error ? e.message : e}`);
        }
      });
      return issues;
    },
    sweep(passId) {
      const n = sweep.run(passId).changes;
      unindexed.sweep();
      return n;
    },
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
    'orderItems',
    'mirror_order_items',
    { column: 'id', field: 'id' },
    {
      order_id: { field: 'order_id', kind: 'id', fallback: '' },
      name: { field: 'name', kind: 'text' },
      project_id: { field: 'project_id', kind: 'id' },
      type: { field: 'type', kind: 'text', fallback: '' },
      status: { field: 'status', kind: 'text', fallback: '' },
      created_at_us: { field: 'created_at', kind: 'instant' },
    },
    (r, id) => {
      const orderId = readId(r.order_id) ?? '';
      dropTasks.run(id);
      for (const t of Array.isArray(r.tasks) ? (r.tasks as unknown[]) : []) {
        const taskId = isRecord(t) ? readId(t.id) : null;
        if (taskId) putTask.run(taskId, id, orderId);
      }
    },
  );

  const catalogs = makeCatalogWriter(sqlite, linkOf);

  return {
    orders: tableWriter(
      sqlite,
      'orders',
      'mirror_orders',
      { column: 'id', field: 'id' },
      {
        status: { field: 'status', kind: 'text', fallback: '' },
        user_id: { field: 'user_id', kind: 'id' },
        created_at_us: { field: 'created_at', kind: 'instant' },
        updated_at_us: { field: 'updated_at', kind: 'instant' },
      },
    ),
    orderItems: {
      unseen: (passId) => orderItems.unseen!(passId),
      variantsOf: (passId, norms) => orderItems.variantsOf!(passId, norms),
      read: (id) => orderItems.read!(id),
      remove(ids) {
        const n = orderItems.remove!(ids);
        for (const id of ids) dropTasks.run(id);
        unlinkCatalog.run();
        return n;
      },
      write(items, passId) {
        const issues = orderItems.write(items, passId);
        relinkCatalog.run();
        return issues;
      },
      sweep(passId) {
        const n = orderItems.sweep(passId);
        orphanTasks.run();
        unlinkCatalog.run();
        return n;
      },
    },
    aois: tableWriter(
      sqlite,
      'aois',
      'mirror_aois',
      { column: 'aoi_id', field: 'aoi_id' },
      {
        name: { field: 'name', kind: 'text' },
        project_id: { field: 'project_id', kind: 'id' },
        status: { field: 'status', kind: 'text', fallback: '' },
        created_at_us: { field: 'created_at', kind: 'instant' },
        updated_at_us: { field: 'updated_at', kind: 'instant' },
      },
    ),
    assets: tableWriter(
      sqlite,
      'assets',
      'mirror_assets',
      { column: 'id', field: 'id' },
      {
        aoi_id: { field: 'aoi_id', kind: 'id', fallback: '' },
        asset_type: { field: 'asset_type', kind: 'text' },
        status: { field: 'status', kind: 'text' },
        created_at_us: { field: 'created_at', kind: 'instant' },
      },
    ),
    indices: tableWriter(
      sqlite,
      'indices',
      'mirror_indices',
      { column: 'id', field: 'id' },
      {
        name: { field: 'name', kind: 'text' },
        type: { field: 'type', kind: 'text' },
        satellite_id: { field: 'satellite_id', kind: 'id' },
      },
    ),
    catalogs,
  };
}
