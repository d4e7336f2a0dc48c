/**
 * The guard on hand-written SQL: every statement written as a string in this package prepares
 * against the table as drizzle defines it, and the finder itself sees plain strings, templates
 * of constants and concatenations, and names a statement that refers to a missing column.
 * `SqlRow` (the raw row type derived from a drizzle table) is checked by the typecheck.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { SqlRow } from '../sql-row';
import type { catalogRecords } from '../table';
import { sqlLiterals, sqlNameCheck, unpreparable } from '../testing';
import { catalogDdl } from '../ddl';
import { installFootprintFunction } from '../footprints';
import { COMPACT_LAYOUT } from '../layout';
import { tempCatalog } from './temp-store';

const SRC = fileURLToPath(new URL('..', import.meta.url));

describe('sqlLiterals, sqlNameCheck, unpreparable', () => {
  const store = tempCatalog('sql-literals');
  // The compact layout's own statements (the packed record, `catalog_unpacked`) prepare here.
  const compact = tempCatalog('sql-literals-compact', COMPACT_LAYOUT);
  afterAll(() => {
    store.close();
    compact.close();
  });
  // The migrations' backfill statement calls it.
  installFootprintFunction(store.sqlite);
  installFootprintFunction(compact.sqlite);
  // The compact layout's shared texts (`compact/shared-texts.ts`) beside the JSON table.
  for (const statement of catalogDdl(COMPACT_LAYOUT))
    if (statement.includes('`catalog_shared`')) store.sqlite.exec(statement);

  it("prepares every statement of this package's sources against the drizzle table", () => {
    const check = sqlNameCheck(store.sqlite, SRC);
    // The inserter's and upserter's column lists and the search SQL are built at run time:
    // listed as dynamic (the writer and search tests run them).
    expect(check.checked.length).toBeGreaterThanOrEqual(4);
    expect(check.dynamic.map((s) => s.at.split(':')[0])).toContain('writes.ts');
    // Every statement prepares against one of the two layouts at least.
    const at = (failure: string) => failure.slice(0, failure.indexOf(': '));
    const failsInCompact = new Set(sqlNameCheck(compact.sqlite, SRC).unpreparable.map(at));
    expect(check.unpreparable.filter((f) => failsInCompact.has(at(f)))).toEqual([]);
  });

  it('finds strings, templates of constants and concatenations, and names what fails', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-sql-literals-'));
    try {
      fs.writeFileSync(
        path.join(dir, 'queries.ts'),
        [
          "const COLS = 'id, gsd';",
          "const TABLE = 'catalog_records';",
          "export const a = 'SELECT id FROM catalog_records WHERE org_id = ?';",
          'export const b = `SELECT ${COLS} FROM ${TABLE}`;',
          "export const c = 'SELECT cloud_coverage ' + 'FROM catalog_records';",
          'export const d = (where: string) => `SELECT id FROM catalog_records WHERE ${where}`;',
          "export const prose = { name: 'Select scene pairs' };",
        ].join('\n'),
      );
      fs.mkdirSync(path.join(dir, '__tests__'));
      fs.writeFileSync(path.join(dir, '__tests__', 'x.spec.ts'), "'SELECT nothing FROM nowhere'");
      const found = sqlLiterals(dir);
      expect(found.checked.map((s) => s.sql)).toEqual([
        'SELECT id FROM catalog_records WHERE org_id = ?',
        'SELECT id, gsd FROM catalog_records',
        'SELECT cloud_coverage FROM catalog_records',
      ]);
      expect(found.dynamic.map((s) => s.at)).toEqual(['queries.ts:6']);
      expect(unpreparable(store.sqlite, found.checked)).toEqual([
        'queries.ts:5: no such column: cloud_coverage',
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('types a raw row by the database column names, NULL where the column allows it', () => {
    type Row = SqlRow<typeof catalogRecords>;
    expectTypeOf<Row['record_json']>().toEqualTypeOf<string>();
    expectTypeOf<Row['datetime_us']>().toEqualTypeOf<number | null>();
    expectTypeOf<keyof Row>().toEqualTypeOf<
      | 'seq'
      | 'id'
      | 'org_id'
      | 'task_id'
      | 'order_item_id'
      | 'order_id'
      | 'item_id'
      | 'collection'
      | 'datetime_us'
      | 'cloud_cover'
      | 'off_nadir'
      | 'gsd'
      | 'min_lon'
      | 'min_lat'
      | 'max_lon'
      | 'max_lat'
      | 'created_at_us'
      | 'updated_at_us'
      | 'record_json'
    >();
  });
});
