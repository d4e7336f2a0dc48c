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
import { RECORD_CONTEXT_COLUMNS } from '../layout';
import { recordContext, type PackedRow } from '../records';
import { packRecord, storedText } from './record-blob';
import { sharedTexts, sharedValuesOf } from './shared-texts';

export interface PackingProgress {
  /** Rows packed by this call. */
  readonly packed: number;
  /** Rows still stored as their text. */
  readonly left: number;
}

type Pending = { seq: number } & Partial<PackedRow>;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The shared values a stored text names, as the writer would have found them. */
function sharedValuesOfText(json: string): string[] {
  let record: unknown;
  try {
    record = JSON.parse(json);
  } catch {
    return [];
  }
  const details = isObject(record) && isObject(record.details) ? record.details : {};
  const p = isObject(details.properties) ? details.properties : {};
  return sharedValuesOf(details, p);
}

/**
 * `next(limit)` packs up to `limit` stored rows (oldest first) and says how many are left;
 * call it inside a transaction. `left()` counts without packing.
 */
export function makeCatalogPacker(sqlite: Database.Database) {
  const shared = sharedTexts(sqlite);
  const context = [...RECORD_CONTEXT_COLUMNS, 'record'].map((n) => `c.${n}`).join(', ');
  const pending = sqlite.prepare(
    `SELECT u.seq AS seq, ${context} FROM catalog_unpacked u
     LEFT JOIN catalog_records c ON c.seq = u.seq ORDER BY u.seq LIMIT ?`,
  );
  const whole = sqlite.prepare('SELECT * FROM catalog_records WHERE seq = ?').raw();
  const columns = whole.columns().map((c) => c.name);
  const recordAt = columns.indexOf('record');
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
      const rows: unknown[][] = [];
      for (const row of pending.all(limit) as Pending[]) {
        const json = row.record instanceof Uint8Array ? storedText(row.record) : null;
        if (json !== null) {
          const packed = whole.get(row.seq) as unknown[];
          const rowContext = recordContext(row as PackedRow);
          packed[recordAt] = packRecord(json, sharedValuesOfText(json), rowContext, shared);
          drop.run(row.seq);
          rows.push(packed);
        }
        done.run(row.seq);
      }
      for (const row of rows) put.run(...row);
      return { packed: rows.length, left: left() };
    },
  };
}
