/**
 * What every connection to a mirror database sets (they are per connection, not stored in the
 * file): WAL, full syncs, foreign keys, a busy timeout, and the SQL functions the mirror's
 * statements call (`eo_catalog_record` once the tables exist). `openMirrorDatabase` (open.ts) opens the engine's connection with them and
 * migrates; `openMirrorConnection` opens another one on a mirror already open and migrated
 * (the sync's write thread, `pull/write-thread.ts`).
 */
import Database from 'better-sqlite3';
import { installFootprintFunction, installRecordFunction } from '@eo/catalog-store';

export function setConnectionPragmas(sqlite: Database.Database): void {
  sqlite.pragma('journal_mode = WAL');
  // FULL: a queued create acknowledged to the user survives even an OS crash or power loss.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  // Two connections of one process (the engine's and its write thread's) take turns writing.
  sqlite.pragma('busy_timeout = 5000');
  // The footprint migration backfills existing records' rings with this function.
  installFootprintFunction(sqlite);
}

/** Another connection to a mirror that is open and migrated already. */
export function openMirrorConnection(file: string): Database.Database {
  const sqlite = new Database(file, { fileMustExist: true });
  try {
    setConnectionPragmas(sqlite);
    // `eo_catalog_record(...)`: a packed record's text in SQL (reads the migrated tables).
    installRecordFunction(sqlite);
  } catch (e) {
    sqlite.close();
    throw e;
  }
  return sqlite;
}
