/**
 * AOIs (spec 2.6) and their assets (2.7). Scene assets are produced per archive item when an
 * AOI is created; index assets are produced by visualizations (`visualization_id` set).
 * Geometries and lists are JSON text; what lists filter and sort on has its own column.
 */
import { index, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const aois = sqliteTable(
  'aois',
  {
    /** Creation order: the stable order of the AOI list. */
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    orgId: text('org_id').notNull(),
    userId: text('user_id').notNull(),
    projectId: text('project_id').notNull(),
    satelliteId: text('satellite_id').notNull(),
    provider: text('provider').notNull(),
    name: text('name').notNull(),
    /** `name` lower-cased in JS (full Unicode), for the case-insensitive `aoi_name` filter. */
    nameLower: text('name_lower').notNull(),
    description: text('description').notNull(),
    geometryJson: text('geometry_json').notNull(),
    /** The archive item ids the AOI was created from, in request order. */
    itemIdsJson: text('item_ids_json').notNull(),
    eoBandsJson: text('eo_bands_json').notNull(),
    areaSqM: real('area_sq_m').notNull(),
    centroidLon: real('centroid_lon').notNull(),
    centroidLat: real('centroid_lat').notNull(),
    /** Outcome of producing the scene assets: started, running, success, partial_success, failed. */
    sceneStatus: text('scene_status').notNull(),
    /** Wire status: `scene_status`, or `updating` while a visualization on a settled AOI runs. */
    status: text('status').notNull(),
    progress: integer('progress').notNull(),
    isFavourite: integer('is_favourite', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    index('aois_org_seq').on(t.orgId, t.seq),
    index('aois_org_project').on(t.orgId, t.projectId, t.seq),
  ],
);

export const assets = sqliteTable(
  'assets',
  {
    /** Production order: the stable order of the asset list. */
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    orgId: text('org_id').notNull(),
    aoiId: text('aoi_id')
      .notNull()
      .references(() => aois.id),
    /** Set on index assets (produced by a visualization). */
    visualizationId: text('visualization_id'),
    /** The archive item a scene asset is cut from. */
    sourceItemId: text('source_item_id'),
    /** The scene asset an index asset is computed from. */
    sourceAssetId: text('source_asset_id'),
    name: text('name').notNull(),
    description: text('description').notNull(),
    /** `scene` or `index`. */
    assetType: text('asset_type').notNull(),
    bandListJson: text('band_list_json').notNull(),
    /** `YYYY-MM-DD` of the acquisition. */
    date: text('date').notNull(),
    /** Footprint ∩ AOI once produced; NULL before and when nothing intersects. */
    geometryJson: text('geometry_json'),
    areaSqM: real('area_sq_m'),
    centroidLon: real('centroid_lon'),
    centroidLat: real('centroid_lat'),
    path: text('path'),
    /** pending, running, success, failed. */
    status: text('status').notNull(),
    progress: integer('progress').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    index('assets_aoi_seq').on(t.aoiId, t.seq),
    index('assets_visualization').on(t.visualizationId, t.seq),
  ],
);
