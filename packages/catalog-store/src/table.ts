/**
 * Catalog records (spec 2.10): imagery an organisation has received. What searches filter and
 * sort on is copied to indexed columns, and footprints are indexed by the `catalog_rtree`
 * R*Tree (custom migration). `order_id` / `order_item_id` are the links catalog search's
 * `order_ids` / `order_item_ids` filter on.
 *
 * Two layouts of the one table `catalog_records`, with the same columns, indexes and search SQL
 * (`layout.ts`), differ in how the whole record is kept:
 * - `catalogRecords` (the reference service): the record as JSON text (`record_json`).
 * - `compactCatalogRecords` (the offline mirror, where disk is the user's): the record as a
 *   compressed BLOB (`record`, `compact/record-blob.ts`), plus the columns that let search and
 *   the result list leave it packed: the exact footprint (`geometry`, `compact/geometry-blob.ts`),
 *   `platform`, `view:sun_elevation` and `updated` (what the mirror's incremental sync asks from).
 */
import { sql } from 'drizzle-orm';
import {
  blob,
  index,
  integer,
  real,
  sqliteTable,
  text,
  type AnySQLiteColumn,
} from 'drizzle-orm/sqlite-core';

/** The columns both layouts have (fresh builders per table). */
const sharedColumns = () => ({
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
});

interface IndexedColumns {
  readonly orgId: AnySQLiteColumn;
  readonly datetimeUs: AnySQLiteColumn;
  readonly id: AnySQLiteColumn;
  readonly collection: AnySQLiteColumn;
  readonly itemId: AnySQLiteColumn;
  readonly orderId: AnySQLiteColumn;
  readonly orderItemId: AnySQLiteColumn;
  readonly taskId: AnySQLiteColumn;
}

const sharedIndexes = (t: IndexedColumns) => [
  // The default order (datetime desc, id asc): a page is an index walk, not a sort.
  index('catalog_org_dt_desc').on(t.orgId, sql`${t.datetimeUs} DESC`, t.id),
  // The same within collections (the desktop browses one collection at a time).
  index('catalog_org_collection_dt').on(t.orgId, t.collection, sql`${t.datetimeUs} DESC`, t.id),
  index('catalog_org_item').on(t.orgId, t.itemId),
  index('catalog_org_order').on(t.orgId, t.orderId),
  index('catalog_org_order_item').on(t.orgId, t.orderItemId),
  index('catalog_task').on(t.taskId),
];

/**
 * The mirror's indexes: the two walks search pages and counts take (newest first, by
 * collection) as the service's, covering with `org_id`; the item index without it (an item
 * filter names a few records), and the order, order item and task links indexed only where
 * set (partial: most mirrored records have none, and `= ?` / `IN (...)` on a column implies it
 * is not NULL, so the filters still use them).
 */
const compactIndexes = (t: IndexedColumns) => [
  index('catalog_org_dt_desc').on(t.orgId, sql`${t.datetimeUs} DESC`, t.id),
  index('catalog_org_collection_dt').on(t.orgId, t.collection, sql`${t.datetimeUs} DESC`, t.id),
  index('catalog_item').on(t.itemId),
  index('catalog_order_set')
    .on(t.orderId)
    .where(sql`${t.orderId} IS NOT NULL`),
  index('catalog_order_item_set')
    .on(t.orderItemId)
    .where(sql`${t.orderItemId} IS NOT NULL`),
  index('catalog_task_set')
    .on(t.taskId)
    .where(sql`${t.taskId} IS NOT NULL`),
];

/** The service's layout: the whole record as sent on the wire. */
export const catalogRecords = sqliteTable(
  'catalog_records',
  {
    ...sharedColumns(),
    /** The whole record as sent on the wire. */
    recordJson: text('record_json').notNull(),
  },
  sharedIndexes,
);

/** The mirror's layout: the record packed, what search and the list read as columns. */
export const compactCatalogRecords = sqliteTable(
  'catalog_records',
  {
    ...sharedColumns(),
    /** `details.properties.platform` when it is a string. */
    platform: text('platform'),
    /** `details.properties.view:sun_elevation` as a number (read as the other number columns). */
    sunElevation: real('sun_elevation'),
    /** `details.properties.updated` as µs (any readable instant); NULL when missing. */
    itemUpdatedUs: integer('item_updated_us'),
    /** `details.geometry`, exactly (`compact/geometry-blob.ts`); NULL when missing. */
    geometry: blob('geometry', { mode: 'buffer' }),
    /** The whole record as sent on the wire, packed (`compact/record-blob.ts`). */
    record: blob('record', { mode: 'buffer' }).notNull(),
  },
  compactIndexes,
);
