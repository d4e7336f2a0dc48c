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
import { installRecordFunction } from '@eo/catalog-store';
import { setConnectionPragmas } from './connection';
import {
  compactIfMostlyFree,
  upgradeCatalogRecords,
  type UpgradeProgress,
} from './compact-upgrade';
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

export interface OpenMirrorOptions {
  /**
   * Progress of moving the catalog of a mirror from before the compact layout (once, at the
   * first open after the upgrade: `compact-upgrade.ts`).
   */
  readonly onUpgrade?: (p: UpgradeProgress) => void;
}

export function openMirrorDatabase(file: string, options: OpenMirrorOptions = {}): MirrorDatabase {
  // Owner-only: a folder created here 0700; the database, its -wal and -shm 0600.
  makePrivateDir(path.dirname(path.resolve(file)));
  preparePrivateDatabase(file);
  const sqlite = new Database(file);
  // 8 KB pages for a new file (a no-op on an existing one): fewer pages per B-tree walk, and
  // the files of mirrors from before the compact layout (~2.5 KB of JSON a catalog row) are
  // a third smaller than with 4 KB.
  sqlite.pragma(`page_size = ${PAGE_SIZE}`);
  // Incremental auto-vacuum for a new file (a no-op on an existing one): the pages a sync's
  // records took as text are given back once packed (`mirror/packing.ts`), not kept for ever.
  sqlite.pragma('auto_vacuum = INCREMENTAL');
  setConnectionPragmas(sqlite);
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  upgradeCatalogRecords(sqlite, options.onUpgrade);
  compactIfMostlyFree(sqlite);
  // `eo_catalog_record(...)`: a packed record's text in SQL (`COMPACT_LAYOUT.recordSql`).
  installRecordFunction(sqlite);
  return {
    file,
    sqlite,
    db,
    close() {
      if (sqlite.open) sqlite.close();
    },
  };
}
