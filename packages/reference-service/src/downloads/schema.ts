/**
 * Downloads (the provider's `POST /v0/catalogs/download` and `POST /v0/aois/{aoi_id}/downloads`,
 * extensions of ours): one row per download request. What was asked for is kept as asked
 * (`requested_field` + `requested_ids_json`); the scenes it resolves to are written when the
 * worker finishes it (`scenes_json`), and their signed URLs are made at response time, never
 * stored.
 */
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const downloads = sqliteTable(
  'downloads',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    orgId: text('org_id').notNull(),
    /** The AOI of an asset download; NULL for a catalog download. */
    aoiId: text('aoi_id'),
    /** `catalog_ids`, `order_item_ids` or `asset_ids`. */
    requestedField: text('requested_field').notNull(),
    /** The ids asked for, in request order (JSON list). */
    requestedIdsJson: text('requested_ids_json').notNull(),
    /** created, in_progress, success, failed. */
    status: text('status').notNull(),
    /** Why a failed download failed. */
    reason: text('reason'),
    /** Once `success`: `[{ source: 'archive' | 'catalog', id }]`, one per scene file. */
    scenesJson: text('scenes_json'),
    createdBy: text('created_by').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('downloads_org_created').on(t.orgId, t.createdAt, t.id)],
);
