/** Indices: presets (org_id NULL, visible to every organisation) and custom ones. */
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const indices = sqliteTable(
  'indices',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    /** NULL for built-in presets. */
    orgId: text('org_id'),
    userId: text('user_id'),
    name: text('name').notNull(),
    description: text('description').notNull(),
    expression: text('expression').notNull(),
    expressionType: text('expression_type').notNull(),
    type: text('type').notNull(),
    rescaleJson: text('rescale_json').notNull(),
    colormap: text('colormap').notNull(),
    satelliteId: text('satellite_id').notNull(),
    bandsJson: text('bands_json').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [index('indices_org').on(t.orgId, t.seq)],
);
