/** Stored responses of creates made with an Idempotency-Key (kept at least 24 h). */
import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    orgId: text('org_id').notNull(),
    key: text('key').notNull(),
    /** `POST /v0/orders`: a key is scoped to the endpoint it was used on. */
    endpoint: text('endpoint').notNull(),
    /** sha256 of the canonical request (params, query, body). */
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code').notNull(),
    responseJson: text('response_json').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.key] })],
);
