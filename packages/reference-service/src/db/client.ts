/** Opens the service's SQLite database (WAL), applies migrations, and wraps it in drizzle. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { installFootprintFunction } from '@eo/catalog-store';
import * as schema from './schema';

export type Db = BetterSQLite3Database<typeof schema>;
export interface Database_ {
  readonly sqlite: Database.Database;
  readonly db: Db;
  close(): void;
}

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));

export function openDatabase(file: string): Database_ {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  // NORMAL is durable across process crashes in WAL mode (only an OS crash can lose the last commit).
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('cache_size = -64000');
  // The footprint migration backfills existing records' rings with this function.
  installFootprintFunction(sqlite);
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  return {
    sqlite,
    db,
    close() {
      if (sqlite.open) {
        sqlite.pragma('optimize');
        sqlite.close();
      }
    },
  };
}
