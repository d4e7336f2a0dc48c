/**
 * The first screen's footprints kept across launches. A launch draws every footprint of the
 * search it opens with; with 100,000 mirrored records reading them (100,000 ring lookups beside
 * the records) took ~110 ms of an idle core, 250 to 320 ms of a launch sharing two cores with the
 * page, and the first screen waited for it. The answer of the search for every record is kept in
 * the mirror (`mirror_footprints_kept`, one row) as the desktop's wire carries it (the ids
 * joined, their offsets, the rings' offsets and points), read at the next launch without a string
 * per id: with 100,000 records the row is ~5 MB, and a fresh process reads it in 24 to 40 ms
 * (most of it SQLite's overflow pages: the 4 MB of points 17 to 37 ms, the 1.1 MB of ids 7 to
 * 22; 2026-12-02).
 *
 * It stays true because SQLite drops it, not the writers: triggers empty the table in the
 * writer's own transaction (any writer, any connection, the sync's write thread too), so a kept
 * answer is never older than the rows it was read from, even across a crash. The answer is every
 * record's id and ring: a record comes into it with its ring (`catalog_footprints` INSERT), its
 * ring changes (INSERT OR REPLACE, UPDATE), a record or a ring goes (DELETE), or an id or an
 * organisation is rewritten (UPDATE OF). Nothing on INSERT into `catalog_records`: a record
 * without a ring is not in the answer, and such a trigger cost ~40 µs per record written (the
 * ones here cost a few, measured over 15,000 inserts and upserts). Searches with any filter are
 * not kept (a filter's column would need its own trigger on every upsert).
 *
 * The triggers are made at every open (a table rebuilt by a migration loses its triggers: one
 * found missing drops the kept answer too). The key is the compiled search and its parameters,
 * so a changed search compiler never reads an answer of the old one.
 */
import { blob, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type Database from 'better-sqlite3';
import type { CatalogFootprints } from './footprints';

export const mirrorFootprintsKept = sqliteTable('mirror_footprints_kept', {
  /** The compiled search (`keptKey`). */
  key: text('key').primaryKey(),
  n: integer('n').notNull(),
  /** The ids joined, no separator (`CatalogFootprints.idText`). */
  ids: text('ids').notNull(),
  /** Uint32 little-endian, `n + 1` of them: where each id starts in `ids` (UTF-16 units). */
  idOffsets: blob('id_offsets', { mode: 'buffer' }).notNull(),
  /** Uint32 little-endian, `n + 1` of them: where each ring starts in `coords` (points). */
  offsets: blob('offsets', { mode: 'buffer' }).notNull(),
  /** Float32 little-endian lon, lat pairs. */
  coords: blob('coords', { mode: 'buffer' }).notNull(),
});

/** Bumped when the kept row's layout or meaning changes: older rows are not read. */
const KEPT_FORMAT = 2;
/** The changes that drop the kept answer: `AFTER <change> [OF <columns>] ON <table>`. */
const WATCHED: readonly { table: string; change: string; of?: readonly string[] }[] = [
  { table: 'catalog_footprints', change: 'INSERT' },
  { table: 'catalog_footprints', change: 'UPDATE' },
  { table: 'catalog_footprints', change: 'DELETE' },
  { table: 'catalog_records', change: 'DELETE' },
  { table: 'catalog_records', change: 'UPDATE', of: ['seq', 'id', 'org_id'] },
];
const triggerName = (w: { table: string; change: string }) =>
  `${w.table}_${w.change.toLowerCase()}_drops_kept_footprints`;

/** The compiled search a kept answer is for (every record), or null when it is not kept. */
export function keptKey(c: {
  from: string;
  where: string;
  params: Record<string, unknown>;
  everyRecord: boolean;
}): string | null {
  if (!c.everyRecord) return null;
  return JSON.stringify({ format: KEPT_FORMAT, from: c.from, where: c.where, params: c.params });
}

/** Makes the triggers that drop the kept answer (dropping it if any was missing). */
function installTriggers(sqlite: Database.Database): void {
  const names = WATCHED.map(triggerName);
  const have = sqlite
    .prepare(
      `SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name IN (${names.map(() => '?').join(',')})`,
    )
    .pluck()
    .get(...names) as number;
  if (have === names.length) return;
  sqlite.transaction(() => {
    for (const w of WATCHED) {
      const change = w.of ? `${w.change} OF ${w.of.join(', ')}` : w.change;
      sqlite.exec(
        `CREATE TRIGGER IF NOT EXISTS ${triggerName(w)} AFTER ${change} ON ${w.table}
           WHEN EXISTS (SELECT 1 FROM mirror_footprints_kept)
           BEGIN DELETE FROM mirror_footprints_kept; END`,
      );
    }
    sqlite.exec('DELETE FROM mirror_footprints_kept');
  })();
}

export function makeKeptFootprints(sqlite: Database.Database) {
  installTriggers(sqlite);
  const select = sqlite.prepare(
    'SELECT n, ids, id_offsets, offsets, coords FROM mirror_footprints_kept WHERE key = ?',
  );
  const drop = sqlite.prepare('DELETE FROM mirror_footprints_kept');
  const insert = sqlite.prepare(
    `INSERT INTO mirror_footprints_kept (key, n, ids, id_offsets, offsets, coords)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const dataVersion = () => sqlite.pragma('data_version', { simple: true }) as number;

  return {
    /**
     * Another connection's commits change it (`PRAGMA data_version`): read before an answer is
     * read from the rows, compared by `put` before keeping it.
     */
    dataVersion,

    /** The kept answer for `key`, or null (none, another search's, or unreadable). */
    get(key: string): CatalogFootprints | null {
      const row = select.get(key) as
        { n: number; ids: string; id_offsets: Buffer; offsets: Buffer; coords: Buffer } | undefined;
      if (!row) return null;
      const { n } = row;
      const idOffsets = uint32s(row.id_offsets, n + 1);
      const offsets = uint32s(row.offsets, n + 1);
      if (!idOffsets || !offsets) return null;
      if (!rising(idOffsets, 0, row.ids.length) || !rising(offsets, 3, row.coords.byteLength / 8)) {
        return null;
      }
      const coords = new Float32Array(offsets[n]! * 2);
      new Uint8Array(coords.buffer).set(row.coords);
      return { idText: row.ids, idOffsets, offsets, coords };
    },

    /**
     * Keeps `value` as the answer for `key` when no other connection committed since
     * `readAt` (its `dataVersion` before it was read), in place of any kept before. False when
     * not kept: changed since, or the database busy (never waited for: this is only a shortcut).
     */
    put(key: string, value: CatalogFootprints, readAt: number): boolean {
      const n = value.idOffsets.length - 1;
      if (n <= 0 || sqlite.inTransaction) return false;
      const timeout = sqlite.pragma('busy_timeout', { simple: true }) as number;
      sqlite.pragma('busy_timeout = 0');
      try {
        sqlite.exec('BEGIN IMMEDIATE');
      } catch (e) {
        if ((e as { code?: string }).code?.startsWith('SQLITE_BUSY')) return false;
        throw e;
      } finally {
        sqlite.pragma(`busy_timeout = ${timeout}`);
      }
      try {
        if (dataVersion() !== readAt) {
          sqlite.exec('ROLLBACK');
          return false;
        }
        drop.run();
        const bytes = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
        insert.run(
          key,
          n,
          value.idText,
          bytes(value.idOffsets.subarray(0, n + 1)),
          bytes(value.offsets.subarray(0, n + 1)),
          bytes(value.coords),
        );
        sqlite.exec('COMMIT');
        return true;
      } catch (e) {
        if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
        throw e;
      }
    },
  };
}

/** `count` Uint32s read from a stored blob (a copy: the blob's bytes need not be aligned). */
function uint32s(blob: Buffer, count: number): Uint32Array | null {
  if (blob.byteLength !== count * 4) return null;
  const out = new Uint32Array(count);
  new Uint8Array(out.buffer).set(blob);
  return out;
}

/** Starts at 0, each step at least `step`, ends at `total`. */
function rising(offsets: Uint32Array, step: number, total: number): boolean {
  if (offsets[0] !== 0 || offsets[offsets.length - 1] !== total) return false;
  for (let i = 1; i < offsets.length; i++) if (offsets[i]! < offsets[i - 1]! + step) return false;
  return true;
}
