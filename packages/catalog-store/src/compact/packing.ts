/**
 * Packing records a writer stored as their text (`writes.ts`, `packing: 'later'`): a sync's
 * pages go to disk at the link's pace, with the CPU a record's packing costs (~80 µs: a zlib
 * stream set up with the preset dictionary per record) spent after it, in batches a caller
 * runs when the app is idle. A batch packs each row's text against the row's own columns, so
 * it reads back byte for byte the same; in the caller's transaction, so a batch cut short
 * leaves every row either stored or packed, never half of each.
 *
 * The rows are deleted and written again under the same `seq` (their R*Tree entries and
 * footprints stay valid), not updated: an update in place shrinks each ~2.5 kB row to a few
 * hundred bytes where it is, and left the table's pages 12 % full (3,301 bytes a record
 * against 438 packed at once, catalog-disk smoke); deleted first, a batch's rows free whole
 * pages, and written again they fill them as a writer packing at once does (94 %).
 */
import type Database from 'better-sqlite3';
import { recordContext, type PackedRow } from '../records';
import { sharedValuesOfText } from '../writes';
import { packRecord, storedText } from './record-blob';
import { sharedTexts } from './shared-texts';

export interface PackingProgress {
  /** Rows packed by this call. */
  readonly packed: number;
  /** Rows still stored as their text. */
  readonly left: number;
}

/** A listed row number and its row (every column NULL when the row is gone). */
type Listed = { listed: number } & Record<string, unknown>;

/**
 * `next(limit)` packs up to `limit` stored rows (oldest first) and says how many are left;
 * call it inside a transaction. `left()` counts without packing.
 */
export function makeCatalogPacker(sqlite: Database.Database) {
  const shared = sharedTexts(sqlite);
  // Each listed row read once, whole: its text and context to pack, its columns to write again.
  const pending = sqlite.prepare(
    `SELECT u.seq AS listed, c.* FROM catalog_unpacked u
     LEFT JOIN catalog_records c ON c.seq = u.seq ORDER BY u.seq LIMIT ?`,
  );
  const columns = sqlite
    .prepare('SELECT * FROM catalog_records LIMIT 0')
    .columns()
    .map((c) => c.name);
  const drop = sqlite.prepare('DELETE FROM catalog_records WHERE seq = ?');
  const put = sqlite.prepare(
    `INSERT INTO catalog_records (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
  );
  const done = sqlite.prepare('DELETE FROM catalog_unpacked WHERE seq = ?');
  const count = sqlite.prepare('SELECT count(*) FROM catalog_unpacked').pluck();
  const left = () => count.get() as number;
  return {
    left,
    next(limit: number): PackingProgress {
      const rows: Array<Record<string, unknown>> = [];
      for (const row of pending.all(limit) as Listed[]) {
        const json = row.record instanceof Uint8Array ? storedText(row.record) : null;
        if (json !== null) {
          const context = recordContext(row as unknown as PackedRow);
          rows.push({
            ...row,
            record: packRecord(json, sharedValuesOfText(json), context, shared),
          });
          drop.run(row.listed);
        }
        done.run(row.listed);
      }
      for (const row of rows) put.run(columns.map((c) => row[c]));
      return { packed: rows.length, left: left() };
    },
  };
}
