/**
 * The outbox table: creates queued on the device until the service has them. See the "Outbox"
 * section of packages/sync/README.md for the states and their transitions.
 */
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const outbox = sqliteTable(
  'outbox',
  {
    /** Client-generated UUID; also the Idempotency-Key of every attempt. */
    id: text('id').primaryKey(),
    /** FIFO order of enqueueing. */
    seq: integer('seq').notNull().unique(),
    /** order | aoi | index | visualization | delivery | job */
    kind: text('kind').notNull(),
    /** The validated input as enqueued (may hold `local:` references), JSON. */
    input: text('input').notNull(),
    /** queued | sending | sent | failed | blocked | cancelled | unconfirmed | handed_over */
    state: text('state').notNull(),
    /** Local ids this entry refers to, JSON array; they are sent first. */
    dependsOn: text('depends_on').notNull().default('[]'),
    attempts: integer('attempts').notNull().default(0),
    /** Microseconds; null = due now. */
    nextAttemptAt: integer('next_attempt_at'),
    /** `{ kind, status?, code?, message, details?: [{ path, message }] }`, JSON. */
    lastError: text('last_error'),
    /** The service's create response, JSON. */
    response: text('response'),
    remoteId: text('remote_id'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    sentAt: integer('sent_at'),
    /** Microseconds; set when written to a handover file for another laptop (`handed_over`). */
    handedOverAt: integer('handed_over_at'),
    /** Microseconds; set when it came from another laptop's handover file. */
    receivedAt: integer('received_at'),
  },
  (t) => [index('outbox_state_seq').on(t.state, t.seq)],
);
