/**
 * Mirror tables: what the last sync passes saw of the service, for offline reads.
 *
 * Every mirrored row keeps the record's full JSON as received (`json`) plus copies of the
 * fields local filters use, in indexed columns (timestamps as integer µs). `pass_id` is the
 * sync pass that last saw the row: a complete pass deletes the rows of its resource that carry
 * an older pass (mark and sweep, see README.md).
 *
 * Catalog records use the layout of @eo/catalog-store (the same table, R*Tree and search SQL
 * as the service); which pass saw each record is kept beside it in `mirror_catalog_seen`.
 */
import { index, integer, primaryKey, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';

// The catalog table in its compact layout (records packed, footprints exact), the texts its
// records share (`catalog_shared`), and the rows a sync stored as text, to pack when idle
// (`catalog_unpacked`).
export {
  compactCatalogRecords as catalogRecords,
  catalogFootprints,
  catalogShared,
  catalogUnpacked,
} from '@eo/catalog-store';
// The first screen's footprints kept for the next launch (`search/kept-footprints.ts`).
export { mirrorFootprintsKept } from '../search/kept-footprints';

export const mirrorOrders = sqliteTable(
  'mirror_orders',
  {
    id: text('id').primaryKey(),
    status: text('status').notNull(),
    userId: text('user_id'),
    createdAtUs: integer('created_at_us'),
    updatedAtUs: integer('updated_at_us'),
    passId: text('pass_id').notNull(),
    json: text('json').notNull(),
  },
  (t) => [
    index('mirror_orders_status_created').on(t.status, t.createdAtUs),
    index('mirror_orders_created').on(t.createdAtUs),
    index('mirror_orders_pass').on(t.passId),
  ],
);

/** Order items; their tasks and validation errors stay in `json`. */
export const mirrorOrderItems = sqliteTable(
  'mirror_order_items',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id').notNull(),
    name: text('name'),
    projectId: text('project_id'),
    type: text('type').notNull(),
    status: text('status').notNull(),
    createdAtUs: integer('created_at_us'),
    passId: text('pass_id').notNull(),
    json: text('json').notNull(),
  },
  (t) => [
    index('mirror_order_items_order').on(t.orderId),
    index('mirror_order_items_status_type').on(t.status, t.type),
    index('mirror_order_items_project').on(t.projectId),
    index('mirror_order_items_pass').on(t.passId),
  ],
);

/**
 * The tasks of mirrored order items, by id: how a catalog record (`task_id`) finds the order
 * and order item that catalog search's `order_ids` / `order_item_ids` filters link it to.
 */
export const mirrorTasks = sqliteTable('mirror_tasks', {
  taskId: text('task_id').primaryKey(),
  orderItemId: text('order_item_id').notNull(),
  orderId: text('order_id').notNull(),
});

export const mirrorAois = sqliteTable(
  'mirror_aois',
  {
    aoiId: text('aoi_id').primaryKey(),
    name: text('name'),
    projectId: text('project_id'),
    status: text('status').notNull(),
    createdAtUs: integer('created_at_us'),
    updatedAtUs: integer('updated_at_us'),
    passId: text('pass_id').notNull(),
    json: text('json').notNull(),
  },
  (t) => [
    index('mirror_aois_status').on(t.status, t.createdAtUs),
    index('mirror_aois_project').on(t.projectId),
    index('mirror_aois_pass').on(t.passId),
  ],
);

export const mirrorAssets = sqliteTable(
  'mirror_assets',
  {
    id: text('id').primaryKey(),
    aoiId: text('aoi_id').notNull(),
    assetType: text('asset_type'),
    status: text('status'),
    createdAtUs: integer('created_at_us'),
    passId: text('pass_id').notNull(),
    json: text('json').notNull(),
  },
  (t) => [
    index('mirror_assets_aoi').on(t.aoiId, t.createdAtUs),
    index('mirror_assets_pass').on(t.passId),
  ],
);

export const mirrorIndices = sqliteTable(
  'mirror_indices',
  {
    id: text('id').primaryKey(),
    name: text('name'),
    type: text('type'),
    satelliteId: text('satellite_id'),
    passId: text('pass_id').notNull(),
    json: text('json').notNull(),
  },
  (t) => [index('mirror_indices_type').on(t.type), index('mirror_indices_pass').on(t.passId)],
);

/**
 * The passes that saw mirrored catalog records, numbered (`catalog-seen.ts`): each pass's id
 * once, not in every record's mark.
 */
export const mirrorCatalogPasses = sqliteTable('mirror_catalog_passes', {
  id: integer('id').primaryKey(),
  passId: text('pass_id').notNull().unique(),
});

/**
 * The pass that last saw each mirrored catalog record (the store's table has no such column),
 * by number. `WITHOUT ROWID` (migration `0013_catalog_seen_numbers`; drizzle cannot say it):
 * one B-tree keyed by record id, with no index on the pass (the sweep reads every row anyway).
 * Read through the view `mirror_catalog_seen (record_id, pass_id)`.
 */
export const mirrorCatalogSeenMarks = sqliteTable('mirror_catalog_seen_marks', {
  recordId: text('record_id').primaryKey(),
  pass: integer('pass').notNull(),
});

/** Deliveries this client created (the service has no list endpoint for them). */
export const mirrorDeliveries = sqliteTable(
  'mirror_deliveries',
  {
    id: text('id').primaryKey(),
    status: text('status'),
    createdAtUs: integer('created_at_us').notNull(),
    json: text('json').notNull(),
  },
  (t) => [index('mirror_deliveries_created').on(t.createdAtUs)],
);

/** Jobs this client created (the service has no list endpoint for them). */
export const mirrorJobs = sqliteTable(
  'mirror_jobs',
  {
    id: text('id').primaryKey(),
    status: text('status'),
    createdAtUs: integer('created_at_us').notNull(),
    json: text('json').notNull(),
  },
  (t) => [index('mirror_jobs_created').on(t.createdAtUs)],
);

/**
 * Visualizations this client created (the service has no list endpoint for them). `aoi_id`
 * lets a refresh follow one through its AOI's assets where the service offers no read of it.
 */
export const mirrorVisualizations = sqliteTable(
  'mirror_visualizations',
  {
    id: text('id').primaryKey(),
    aoiId: text('aoi_id').notNull(),
    status: text('status'),
    createdAtUs: integer('created_at_us').notNull(),
    json: text('json').notNull(),
  },
  (t) => [index('mirror_visualizations_created').on(t.createdAtUs)],
);

/**
 * The service's reference lists (`GET /v0/projects`, `/v0/bandsets`, `/v0/satellites`,
 * `/v0/workflows`: extension reads of ours, reads of the provider's): what forms offer as
 * choices. `kind` is `project`, `bandset`, `satellite` or `workflow`; a kind's rows are replaced
 * whole by each sync that read its list, and left alone when the service has no such read.
 */
export const mirrorReference = sqliteTable(
  'mirror_reference',
  {
    kind: text('kind').notNull(),
    id: text('id').notNull(),
    name: text('name'),
    json: text('json').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.id] })],
);

/**
 * One row per mirrored resource: the pass in progress (or the last one) and where it stands.
 * `part` and `checkpoint` locate the next page: which list (catalog search, AOI) and its offset.
 */
export const syncState = sqliteTable('sync_state', {
  resource: text('resource').primaryKey(),
  passId: text('pass_id'),
  /**
   * What the pass pages through (the catalog searches, as JSON): a pass is resumed only under
   * the same plan; a changed configuration starts a new pass.
   */
  plan: text('plan').notNull().default(''),
  part: integer('part').notNull().default(0),
  /** Offset of the next page to fetch within `part`. */
  checkpoint: integer('checkpoint').notNull().default(0),
  startedAtUs: integer('started_at_us'),
  /** Set when the pass completed; NULL while it is in progress (or was interrupted). */
  finishedAtUs: integer('finished_at_us'),
  lastCompleteAtUs: integer('last_complete_at_us'),
  /** `{ kind, message, status?, code? }` of the last failed attempt, NULL after a success. */
  lastErrorJson: text('last_error_json'),
  /** Records received by this pass so far (skipped ones included). */
  seen: integer('seen').notNull().default(0),
  /** The service's total for the current list, when it says. */
  total: integer('total'),
  /** Rows removed by the last sweep. */
  removed: integer('removed').notNull().default(0),
  /**
   * 1 when the last pass ended with fewer records than the service's total: it did not sweep,
   * and the next sync starts a new pass.
   */
  incomplete: integer('incomplete').notNull().default(0),
  /** Records of this pass that differ from the spec (schema drift, unreadable or unusable fields). */
  drift: integer('drift').notNull().default(0),
  /** Records of this pass that were not stored: no usable id, or the write failed. */
  skipped: integer('skipped').notNull().default(0),
});

/**
 * Incremental sync per resource (see pull/incremental.ts): whether the pass in sync_state is full
 * or incremental (and from when), the change-time watermark of the last complete pass, when the
 * last full pass completed (deletions are swept only by full passes), and why the service
 * refused the change filter (then the resource is synced in full).
 */
export const syncIncremental = sqliteTable('sync_incremental', {
  resource: text('resource').primaryKey(),
  /** The pass in sync_state: 'full' or 'incremental'. */
  passMode: text('pass_mode').notNull().default('full'),
  /** Lower bound (µs) of an incremental pass's change filter: a resumed pass keeps it. */
  passSinceUs: integer('pass_since_us'),
  /** The latest change time (µs) in the mirror after the last complete pass. */
  watermarkUs: integer('watermark_us'),
  lastFullAtUs: integer('last_full_at_us'),
  /** The service rejected the change filter (4xx): `{ status, message }`; full passes only. */
  unsupportedJson: text('unsupported_json'),
});

/**
 * A sample of what differed from the spec, per resource, for the pass that saw it (cleared when
 * a new pass starts): the api-client's schema drift reports, fields the writers could not read
 * for the indexed columns (`not-indexed`), and records not stored (`skipped`).
 */
export const syncDrift = sqliteTable(
  'sync_drift',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    resource: text('resource').notNull(),
    passId: text('pass_id').notNull(),
    /** `schema`, `not-indexed`, `skipped`, or `list`: why the pass is incomplete (not a record's). */
    source: text('source').notNull(),
    recordId: text('record_id'),
    path: text('path').notNull(),
    message: text('message').notNull(),
  },
  (t) => [index('sync_drift_resource').on(t.resource, t.seq)],
);

/**
 * Mirrored records stored with fields that could not be read for their indexed columns (NULL
 * there; a catalog footprint that cannot be read has no R*Tree entry): local filters on those
 * fields never match them, and offline search says how many there are.
 */
export const mirrorUnindexed = sqliteTable(
  'mirror_unindexed',
  {
    resource: text('resource').notNull(),
    recordId: text('record_id').notNull(),
    /** The fields that could not be read, as a JSON array of paths. */
    fields: text('fields').notNull(),
  },
  (t) => [primaryKey({ columns: [t.resource, t.recordId] })],
);

/**
 * The quicklooks (`thumbnail`, `overview`) of mirrored catalog records, downloaded after the
 * records (src/mirror/imagery.ts): the file beside the database (`<db>.imagery/<file>`), its
 * size and SHA-256 (checked before use), when it was fetched and last viewed (`touch`; the
 * least recently viewed is evicted first when the byte budget is exceeded; 0 = never viewed).
 * Index maps of mirrored visualizations share the table (and so the budget): the record is the
 * visualization, the variant `index:<YYYY-MM-DD>` (src/pull/index-maps.ts).
 */
export const mirrorImagery = sqliteTable(
  'mirror_imagery',
  {
    recordId: text('record_id').notNull(),
    variant: text('variant').notNull(),
    file: text('file').notNull(),
    bytes: integer('bytes').notNull(),
    sha256: text('sha256').notNull(),
    fetchedAtUs: integer('fetched_at_us').notNull(),
    lastViewedUs: integer('last_viewed_us').notNull().default(0),
    /** Index maps only (variant `index:<date>`, record = visualization): their AOI. */
    aoiId: text('aoi_id'),
    /** Index maps only: `IndexMapLegend` plus index id and name, as JSON. */
    legendJson: text('legend_json'),
  },
  (t) => [
    primaryKey({ columns: [t.recordId, t.variant] }),
    index('mirror_imagery_viewed').on(t.lastViewedUs, t.fetchedAtUs),
  ],
);

/**
 * Archive scenes found by the saved archive searches (satellite search, 4.5), kept for offline
 * use: the feature JSON as received, plus indexed copies read leniently (NULL when unreadable).
 * A scene listed by several searches is stored once; one no search lists is deleted.
 */
export const mirrorArchiveScenes = sqliteTable(
  'mirror_archive_scenes',
  {
    id: text('id').primaryKey(),
    collectionId: text('collection_id'),
    satelliteId: text('satellite_id'),
    datetimeUs: integer('datetime_us'),
    cloudCover: real('cloud_cover'),
    minLon: real('min_lon'),
    minLat: real('min_lat'),
    maxLon: real('max_lon'),
    maxLat: real('max_lat'),
    json: text('json').notNull(),
    receivedAtUs: integer('received_at_us').notNull(),
  },
  (t) => [index('mirror_archive_scenes_datetime').on(t.datetimeUs)],
);

/** Which scenes each saved archive search lists, in the service's order (`rank` from 0). */
export const mirrorArchiveSearchScenes = sqliteTable(
  'mirror_archive_search_scenes',
  {
    searchId: text('search_id').notNull(),
    sceneId: text('scene_id').notNull(),
    rank: integer('rank').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.searchId, t.sceneId] }),
    index('mirror_archive_search_scenes_rank').on(t.searchId, t.rank),
    index('mirror_archive_search_scenes_scene').on(t.sceneId),
  ],
);

/** Where each saved archive search's last pass stands (`src/pull/archive.ts`). */
export const mirrorArchiveSearches = sqliteTable('mirror_archive_searches', {
  searchId: text('search_id').primaryKey(),
  name: text('name').notNull(),
  /** The saved search as JSON (search body and cap): its list is of this search. */
  plan: text('plan').notNull(),
  /** Scenes the last pass received (the list keeps them, capped at the search's `maxScenes`). */
  received: integer('received').notNull().default(0),
  /** The service's total for the search, when it gave one. */
  total: integer('total'),
  /** 1: the last pass ended short (pager cut, fewer than the total): the list was not replaced. */
  incomplete: integer('incomplete').notNull().default(0),
  drift: integer('drift').notNull().default(0),
  skipped: integer('skipped').notNull().default(0),
  attemptedAtUs: integer('attempted_at_us'),
  lastCompleteAtUs: integer('last_complete_at_us'),
  /** `{ kind, message, status?, code? }` of the last failed pass; NULL after a good one. */
  lastErrorJson: text('last_error_json'),
});

/**
 * Where the mirror's data came from (one row, `id` 1): the service of the last sync (its
 * origin, or the name its caller gave it) and the organisation, learned from the records or
 * adopted from the first field package or handed-over outbox a fresh mirror took in. Data
 * carried between laptops is checked against it (`src/field-package/origin.ts`).
 */
export const mirrorOrigin = sqliteTable('mirror_origin', {
  id: integer('id').primaryKey(),
  service: text('service'),
  organisation: text('organisation'),
  /** `sync`, `package` or `handover`: what set it last. */
  source: text('source').notNull(),
  updatedAtUs: integer('updated_at_us').notNull(),
});
