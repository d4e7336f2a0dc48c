/**
 * Whole catalog records read back as the JSON text they were sent as, whatever the layout: the
 * text itself (JSON layout) or the packed blob decoded with its row's context (compact layout).
 * `eo_catalog_record(record, id, item_id, created_at_us, updated_at_us, datetime_us, geometry)`
 * does the same in SQL, for search paths no column holds.
 */
import type Database from 'better-sqlite3';
import { type RecordContext, unpackRecord } from './compact/record-blob';
import { sharedTexts } from './compact/shared-texts';
import { JSON_LAYOUT, RECORD_CONTEXT_COLUMNS, type CatalogLayout } from './layout';
import type { SqlRow } from './sql-row';
import type { compactCatalogRecords } from './table';

type CompactRow = SqlRow<typeof compactCatalogRecords>;
/** What decoding a packed record reads from its row. */
export type PackedRow = Pick<CompactRow, (typeof RECORD_CONTEXT_COLUMNS)[number] | 'record'>;

export function recordContext(row: Omit<PackedRow, 'record'>): RecordContext {
  return {
    id: row.id,
    itemId: row.item_id,
    createdAtUs: row.created_at_us,
    updatedAtUs: row.updated_at_us,
    datetimeUs: row.datetime_us,
    geometry: row.geometry,
  };
}

/** The JSON text of a packed row. */
export function packedRecordJson(sqlite: Database.Database, row: PackedRow): string {
  return unpackRecord(row.record, recordContext(row), sharedTexts(sqlite));
}

/**
 * `eo_catalog_record(record, id, item_id, created_at_us, updated_at_us, datetime_us, geometry)`:
 * the JSON text of a packed row in SQL (NULL for a NULL blob), for search paths no column holds.
 *
 * Each row is decoded once for all the calls a statement makes on it. A search names the record
 * several times a row (a sort on such a path: its type three times and its value once; a `query`
 * twice) and SQLite evaluates each name, so each decoded the row again (a sort by such a path on
 * 100,000 mirrored records: 17.4 s a page before, 8.4 s after; README). The last row's arguments
 * and text are kept; every argument is compared, blobs byte for byte (the function is
 * deterministic: the same arguments may get the same answer).
 *
 * A blob its columns do not decode reads as NULL, not an error. SQLite may call it with a
 * constant in place of a column: a term `c.datetime_us = X` makes it use X for `c.datetime_us`
 * in the other terms (constant propagation), on rows the term then rejects, so their blob meets
 * another instant. An error there failed the whole search (a `query` on a packed path beside a
 * datetime equality, once SQLite scans rather than walks the datetime index). A row whose own
 * columns do not decode it (damaged) is missing for such a filter or sort here; reading its
 * record (this module's readers, a search page) still fails, as it should.
 */
export function installRecordFunction(sqlite: Database.Database): void {
  const shared = sharedTexts(sqlite);
  let last: PackedRowRead | null = null;
  const read = (args: readonly unknown[]): PackedRowRead => {
    if (last !== null && sameArguments(last.args, args)) return last;
    const [record, id, itemId, createdAtUs, updatedAtUs, datetimeUs, geometry] = args;
    let json: string | null = null;
    if (record instanceof Uint8Array) {
      try {
        json = unpackRecord(
          record,
          {
            id: id as string,
            itemId: itemId as string,
            createdAtUs: createdAtUs as number,
            updatedAtUs: updatedAtUs as number,
            datetimeUs: datetimeUs as number | null,
            geometry: geometry as Uint8Array | null,
          },
          shared,
        );
      } catch {
        json = null;
      }
    }
    last = { args, json };
    return last;
  };
  // Named parameters: better-sqlite3 registers a function's `length` as its number of arguments.
  sqlite.function(
    'eo_catalog_record',
    { deterministic: true },
    (record, id, itemId, createdAtUs, updatedAtUs, datetimeUs, geometry) =>
      read([record, id, itemId, createdAtUs, updatedAtUs, datetimeUs, geometry]).json,
  );
}

/** The last row `eo_catalog_record` decoded: its arguments and its text. */
interface PackedRowRead {
  readonly args: readonly unknown[];
  readonly json: string | null;
}

/** SQL values equal: numbers and texts as values, blobs byte for byte. */
function sameArguments(a: readonly unknown[], b: readonly unknown[]): boolean {
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (!(x instanceof Uint8Array && y instanceof Uint8Array)) return false;
    if (x.length !== y.length || !Buffer.from(x.buffer, x.byteOffset, x.length).equals(y))
      return false;
  }
  return true;
}

/** The SQL select list that reads a row's whole record in `layout` (alias `c`). */
function recordColumns(layout: CatalogLayout): string {
  return layout === JSON_LAYOUT
    ? 'c.record_json'
    : [...RECORD_CONTEXT_COLUMNS, 'record'].map((n) => `c.${n}`).join(', ');
}

export interface CatalogRecordReader {
  /** A record's JSON text by id within an organisation; null when there is none. */
  byId(orgId: string, id: string): string | null;
  /** The records of rows `seqs`, in that order (a seq without a row is left out). */
  bySeq(seqs: readonly number[]): string[];
  /** Every record (id and JSON text), newest acquisition first. */
  newestFirst(): IterableIterator<{ id: string; json: string }>;
}

export function makeCatalogRecordReader(
  sqlite: Database.Database,
  layout: CatalogLayout = JSON_LAYOUT,
): CatalogRecordReader {
  const columns = recordColumns(layout);
  const json =
    layout === JSON_LAYOUT
      ? (row: { record_json: string }) => row.record_json
      : (row: PackedRow) => packedRecordJson(sqlite, row);
  const text = json as (row: unknown) => string;
  const byId = sqlite.prepare(
    `SELECT ${columns} FROM catalog_records c WHERE org_id = ? AND id = ?`,
  );
  // A page's rows in one statement: one point lookup a row cost ~0.5 ms more a page of 100
  // on 1,000,000 records (each `get` its own statement run and read transaction).
  const bySeqs = sqlite.prepare(
    `SELECT ${columns}
     FROM json_each(?) j CROSS JOIN catalog_records c ON c.seq = j.value ORDER BY j.key`,
  );
  const order = sqlite
    .prepare('SELECT seq FROM catalog_records ORDER BY datetime_us DESC, id')
    .pluck();
  const idOf = sqlite.prepare(
    `SELECT c.id AS row_id, ${columns} FROM catalog_records c WHERE seq = ?`,
  );
  return {
    byId(orgId, id) {
      const row = byId.get(orgId, id);
      return row === undefined ? null : text(row);
    },
    bySeq(seqs) {
      // In the order asked (`j.key`: the position in the array), a repeat read again.
      return seqs.length === 0 ? [] : bySeqs.all(JSON.stringify(seqs)).map(text);
    },
    *newestFirst() {
      // Row by row after reading the order: no statement stays open while the caller works
      // (or while a blob names a shared text not read yet).
      for (const seq of order.all() as number[]) {
        const row = idOf.get(seq) as { row_id: string } | undefined;
        if (row !== undefined) yield { id: row.row_id, json: text(row) };
      }
    },
  };
}
