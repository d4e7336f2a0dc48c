/**
 * Offline rasters: sites taken offline at full resolution (`take-offline.ts`). One row per
 * site raster, from the moment its download is asked for (the Idempotency-Key is written before
 * the request leaves, so a restart never asks twice) to the stored file: its scene, area, level,
 * CRS, bounds, bands and bytes. The file lives in the imagery store's folder
 * (`<db>.imagery/rasters/`), under the imagery budget.
 *
 * `offline_raster_parts` is the journal of a download in progress: each tile (or, for a whole
 * file, each chunk) written to the part file, with its place and hash, committed only once its
 * bytes are complete and on disk. A resumed download keeps what the journal names and checks,
 * and nothing else.
 */
import { index, integer, primaryKey, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const offlineRasters = sqliteTable(
  'offline_rasters',
  {
    /** Local id, `off_<uuid>`: the row exists before the service knows of it. */
    id: text('id').primaryKey(),
    /** What the user named: `catalog` record, `order_item` or `aoi_asset`. */
    sceneKind: text('scene_kind').notNull(),
    /** The id the user gave (catalog id, order item id or asset id). */
    sceneRef: text('scene_ref').notNull(),
    /** The AOI of an asset. */
    aoiId: text('aoi_id'),
    /** The scene the file holds (the catalog record or archive scene), once known. */
    sceneId: text('scene_id'),
    /** The area asked for: a GeoJSON Polygon or MultiPolygon in longitude/latitude. */
    areaJson: text('area_json').notNull(),
    /** Where the area came from, in words (`AOI North field`, `site.geojson`, `500 m around ...`). */
    areaLabel: text('area_label').notNull(),
    /** `native` or `<N>m`, as asked. */
    resolution: text('resolution').notNull(),
    /** The level read: 0 full resolution, n the n-th overview (once the file's header is read). */
    level: integer('level'),
    /** Sent with the create: written before it leaves, the same on every resend. */
    idempotencyKey: text('idempotency_key').notNull(),
    /**
     * 1 from just before the create is sent until it is known not to have left (a refused
     * connection): a resumed `requesting` row with it set may already be on the service.
     */
    requestSent: integer('request_sent').notNull().default(0),
    /** The service's download id, once it answered. */
    downloadId: text('download_id'),
    /**
     * requesting (the create may be on its way), unconfirmed (it may have reached a service that
     * does not honour the key: the user decides), following (waiting for `success`), fetching,
     * stored, failed.
     */
    state: text('state').notNull(),
    /** `window` (tiles read by range from a COG) or `whole` (the whole file: not a COG). */
    mode: text('mode'),
    /** The remote file's ETag and size: a resumed download goes on only with the same file. */
    sourceEtag: text('source_etag'),
    sourceBytes: integer('source_bytes'),
    /** Of the stored window (NULL for a whole file that is not a raster we read). */
    epsg: integer('epsg'),
    /** `[minX, minY, maxX, maxY]` in the CRS. */
    boundsJson: text('bounds_json'),
    width: integer('width'),
    height: integer('height'),
    /** Band names, JSON list. */
    bandsJson: text('bands_json'),
    nodata: real('nodata'),
    /** The stored file's name in the rasters folder, its size and SHA-256. */
    file: text('file'),
    bytes: integer('bytes'),
    sha256: text('sha256'),
    /** Bytes the read is planned to fetch (tiles and header, or the whole file). */
    plannedBytes: integer('planned_bytes'),
    /** Bytes fetched from the file's host so far (this download, every run). */
    fetchedBytes: integer('fetched_bytes').notNull().default(0),
    /** Why it failed, or what the user should know (a whole-file fallback). */
    message: text('message'),
    createdAtUs: integer('created_at_us').notNull(),
    updatedAtUs: integer('updated_at_us').notNull(),
    storedAtUs: integer('stored_at_us'),
  },
  (t) => [index('offline_rasters_scene').on(t.sceneId), index('offline_rasters_state').on(t.state)],
);

export const offlineRasterParts = sqliteTable(
  'offline_raster_parts',
  {
    rasterId: text('raster_id').notNull(),
    /** A tile (`<level>/<index>`) or a whole file's chunk (`chunk/<n>`). */
    part: text('part').notNull(),
    /** Where its bytes are in the part file, and how many. */
    partOffset: integer('part_offset').notNull(),
    length: integer('length').notNull(),
    sha256: text('sha256').notNull(),
  },
  (t) => [primaryKey({ columns: [t.rasterId, t.part] })],
);
