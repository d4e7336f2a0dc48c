/**
 * Prepared statements cached per database connection, so hot paths (worker steps, lists)
 * do not re-parse their SQL on every call. Shared by aois/, visualizations/ and jobs/.
 */
import type Database from 'better-sqlite3';

const caches = new WeakMap<Database.Database, Map<string, Database.Statement>>();

export function stmt<P extends unknown[] | object = unknown[], R = unknown>(
  sqlite: Database.Database,
  sql: string,
): Database.Statement<P, R> {
  let cache = caches.get(sqlite);
  if (!cache) {
    cache = new Map();
    caches.set(sqlite, cache);
  }
  let s = cache.get(sql);
  if (!s) {
    s = sqlite.prepare(sql);
    cache.set(sql, s);
  }
  return s as unknown as Database.Statement<P, R>;
}
