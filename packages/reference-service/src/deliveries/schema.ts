/**
 * Deliveries (spec 2.12): one row per delivered catalog record or order item task. A delivery
 * request of POST /v0/catalogs/deliveries fans out into these rows; the worker moves each
 * PENDING -> IN_PROGRESS -> SUCCESS | FAILED and writes its manifest.
 */
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const deliveries = sqliteTable(
  'deliveries',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    orgId: text('org_id').notNull(),
    /** Set when the delivery was asked for by catalog id, or once a task's record exists. */
    catalogId: text('catalog_id'),
    taskId: text('task_id'),
    /** Set when the delivery was asked for by order item id. */
    orderItemId: text('order_item_id'),
    cloudConfig: text('cloud_config').notNull(),
    cloudPath: text('cloud_path').notNull(),
    status: text('status').notNull(),
    /** Why a FAILED delivery failed. */
    reason: text('reason'),
    /** Logical location of the manifest: `<cloud path>/<delivery id>.json`. */
    targetPath: text('target_path').notNull(),
    createdBy: text('created_by').notNull(),
    updatedBy: text('updated_by').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    index('deliveries_org_created').on(t.orgId, t.createdAt, t.id),
    index('deliveries_task').on(t.taskId),
  ],
);
