/**
 * Catalog records (spec 2.10): imagery an organisation has received. The full record is kept
 * as JSON; what searches filter and sort on is copied to indexed columns, and footprints are
 * indexed by the `catalog_rtree` R*Tree (custom migration). `order_id` / `order_item_id` are
 * the links catalog search's `order_ids` / `order_item_ids` filter on.
 */
import { sql } from 'drizzle-orm';
import { index, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const catalogRecords = sqliteTable(
  'catalog_records',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    orgId: text('org_id').notNull(),
    taskId: text('task_id'),
    orderItemId: text('order_item_id'),
    orderId: text('order_id'),
    /** STAC item id (`details.id`). */
    itemId: text('item_id').notNull(),
    collection: text('collection'),
    /** `details.properties.datetime` as µs; NULL when missing. */
    datetimeUs: integer('datetime_us'),
    cloudCover: real('cloud_cover'),
    offNadir: real('off_nadir'),
    gsd: real('gsd'),
    minLon: real('min_lon'),
    minLat: real('min_lat'),
    maxLon: real('max_lon'),
    maxLat: real('max_lat'),
    createdAtUs: integer('created_at_us').notNull(),
    updatedAtUs: integer('updated_at_us').notNull(),
    /** The whole record as sent on the wire. */
    recordJson: text('record_json').notNull(),
  },
  (t) => [
    // The default order (datetime desc, id asc): a page is an index walk, not a sort.
    index('catalog_org_dt_desc').on(t.orgId, sql`${t.datetimeUs} DESC`, t.id),
    // The same within collections (the desktop browses one collection at a time).
    index('catalog_org_collection_dt').on(t.orgId, t.collection, sql`${t.datetimeUs} DESC`, t.id),
    index('catalog_org_item').on(t.orgId, t.itemId),
    index('catalog_org_order').on(t.orgId, t.orderId),
    index('catalog_org_order_item').on(t.orgId, t.orderItemId),
    index('catalog_task').on(t.taskId),
  ],
);
