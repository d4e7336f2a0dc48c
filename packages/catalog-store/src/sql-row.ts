/**
 * The row of a drizzle table as raw SQL returns it (`SELECT * FROM t`): keyed by the
 * database's column names, not drizzle's property names. Lets code that keeps its hand-written
 * SQL type its rows from the one table definition instead of a second, hand-written interface.
 * Exported here because both schema owners (the service and the mirror) depend on this package
 * and on drizzle.
 */
import type { Column, Table } from 'drizzle-orm';

/**
 * A column's value as better-sqlite3 reads it: booleans and dates are stored as integers,
 * so raw SQL sees the number; nullable columns may be NULL.
 */
type SqlValue<C extends Column> =
  | (C['_']['data'] extends boolean | Date ? number : C['_']['data'])
  | (C['_']['notNull'] extends true ? never : null);

export type SqlRow<T extends Table> = {
  [K in keyof T['_']['columns'] as T['_']['columns'][K]['_']['name']]: SqlValue<
    T['_']['columns'][K]
  >;
};
