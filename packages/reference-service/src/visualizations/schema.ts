/** Visualizations (spec 2.8): an index applied to scene assets of an AOI. */
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { aois } from '../aois/schema';

export const visualizations = sqliteTable(
  'visualizations',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    /** The organisation (wire `tenant_id`). */
    orgId: text('org_id').notNull(),
    userId: text('user_id').notNull(),
    aoiId: text('aoi_id')
      .notNull()
      .references(() => aois.id),
    indexId: text('index_id').notNull(),
    /** Copied from the index at creation, so later index changes do not rewrite history. */
    indexName: text('index_name').notNull(),
    expression: text('expression').notNull(),
    expressionType: text('expression_type').notNull(),
    type: text('type').notNull(),
    rescaleJson: text('rescale_json').notNull(),
    srcAssetIdsJson: text('src_asset_ids_json').notNull(),
    /** creating, success, partial_success, failed. */
    status: text('status').notNull(),
    progress: integer('progress').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('visualizations_aoi_status').on(t.aoiId, t.status)],
);
