/** Organisations, their users and projects, and API keys (stored hashed). */
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const organizations = sqliteTable('organizations', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: integer('created_at').notNull(),
});

export const users = sqliteTable(
  'users',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    name: text('name').notNull(),
    email: text('email').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('users_org').on(t.orgId)],
);

export const projects = sqliteTable(
  'projects',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    name: text('name').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('projects_org').on(t.orgId)],
);

export const apiKeys = sqliteTable('api_keys', {
  id: text('id').primaryKey(),
  /** sha256 of the key, hex: the key itself is never stored. */
  keyHash: text('key_hash').notNull().unique(),
  /** First characters of the key, to recognise it in listings. */
  keyPrefix: text('key_prefix').notNull(),
  orgId: text('org_id')
    .notNull()
    .references(() => organizations.id),
  userId: text('user_id')
    .notNull()
    .references(() => users.id),
  label: text('label'),
  createdAt: integer('created_at').notNull(),
  revokedAt: integer('revoked_at'),
});
