/**
 * Opens the mirror database (WAL), applies migrations, and wraps it in drizzle: one SQLite file
 * holding the mirror of the service's records, the sync state and the outbox. (The desktop's own
 * settings and tiles live apart, in its desktop store.)
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { installFootprintFunction } from '@eo/catalog-store';
import { makePrivateDir, preparePrivateDatabase } from './private-files';
import * as schema from './schema';

export type MirrorDb = BetterSQLite3Database<typeof schema>;

export interface MirrorDatabase {
  readonly file: string;
  readonly sqlite: Database.Database;
  readonly db: MirrorDb;
  close(): void;
}

/** Page size of new mirror databases (bytes). */
export const PAGE_SIZE = 8192;

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));

export function openMirrorDatabase(file: string): MirrorDatabase {
  // Owner-only: a folder created here 0700; the database, its -wal and -shm 0600.
  makePrivateDir(path.dirname(path.resolve(file)));
  preparePrivateDatabase(file);
  const sqlite = new Database(file);
  // 8 KB pages for a new file (a no-op on an existing one): a catalog row (~2.5 KB of JSON)
  // fills a 4 KB page on its own, three fit in 8 KB: a third less disk and read per record.
  sqlite.pragma(`page_size = ${PAGE_SIZE}`);
  sqlite.pragma('journal_mode = WAL');
  // FULL: a queued create acknowledged to the user survives even an OS crash or power loss.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // The footprint migration backfills existing records' rings with this function.
  installFootprintFunction(sqlite);
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  return {
    file,
    sqlite,
    db,
    close() {
      if (sqlite.open) sqlite.close();
    },
  };
}
