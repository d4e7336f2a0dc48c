/**
 * The archive: scenes of every satellite (spec 2.11 features), searchable by collection,
 * time and footprint. Hot columns are copied out of the feature for filtering and sorting;
 * footprints are indexed by the `archive_scenes_rtree` R*Tree (custom migration).
 */
import { index, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const archiveScenes = sqliteTable(
  'archive_scenes',
  {
    /** Integer key shared with the R*Tree. */
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    /** STAC item id. */
    id: text('id').notNull().unique(),
    collectionId: text('collection_id').notNull(),
    satelliteId: text('satellite_id').notNull(),
    datetimeUs: integer('datetime_us').notNull(),
    cloudCover: real('cloud_cover').notNull(),
    offNadir: real('off_nadir').notNull(),
    gsd: real('gsd').notNull(),
    sunElevation: real('sun_elevation').notNull(),
    sunAzimuth: real('sun_azimuth').notNull(),
    minLon: real('min_lon').notNull(),
    minLat: real('min_lat').notNull(),
    maxLon: real('max_lon').notNull(),
    maxLat: real('max_lat').notNull(),
    /** The STAC feature without `links` (they depend on the base URL and are built on read). */
    featureJson: text('feature_json').notNull(),
  },
  (t) => [
    index('archive_collection_dt').on(t.collectionId, t.datetimeUs, t.seq),
    index('archive_satellite_dt').on(t.satelliteId, t.datetimeUs, t.seq),
  ],
);
