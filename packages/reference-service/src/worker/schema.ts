/**
 * Persisted background work. Each row is one due step of some asynchronous process (fulfil
 * an order item, advance an AOI, deliver, run a job). A step runs in one transaction with the
 * changes it makes and the next step it schedules, so a crash never loses or repeats a step.
 */
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const workItems = sqliteTable(
  'work_items',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** Handler name, e.g. `order_item.advance`. */
    kind: text('kind').notNull(),
    /** The resource the step works on. */
    refId: text('ref_id').notNull(),
    /** When it may run, epoch ms. */
    dueAt: integer('due_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('work_items_due').on(t.dueAt)],
);
