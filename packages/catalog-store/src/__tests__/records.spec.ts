/**
 * Whole records by row number (`bySeq`, what a search page decodes after sorting row numbers):
 * in the order asked, a row asked twice read twice, a number without a row left out, in both
 * layouts, each record byte-equal to what was written.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { record } from '../compact/__tests__/arbitrary-records';
import { COMPACT_LAYOUT, JSON_LAYOUT } from '../layout';
import { installRecordFunction, makeCatalogRecordReader } from '../records';
import { makeCatalogUpserter, type CatalogRecordOut } from '../writes';
import { tempCatalog } from './temp-store';

const links = { orgId: 'org', orderId: null, orderItemId: null };

describe.each([JSON_LAYOUT, COMPACT_LAYOUT])('records by row number ($name)', (layout) => {
  it('reads them in the order asked, repeats included, rows that are not there left out', () => {
    const db = tempCatalog('records-by-seq', layout);
    try {
      const upsert = makeCatalogUpserter(db.sqlite, 'lenient', layout, 'now');
      const written = fc
        .sample(record, { numRuns: 40, seed: 29 })
        .map((r, i) => ({ ...r, id: `r${i}` }) as CatalogRecordOut);
      for (const r of written) upsert(r, links);
      const seqOf = new Map(
        (
          db.sqlite.prepare('SELECT id, seq FROM catalog_records').all() as Array<{
            id: string;
            seq: number;
          }>
        ).map((row) => [row.id, row.seq]),
      );
      const reader = makeCatalogRecordReader(db.sqlite, layout);
      const text = (i: number) => JSON.stringify(written[i]);
      const seq = (i: number) => seqOf.get(`r${i}`)!;
      const missing = Math.max(...seqOf.values()) + 1000;

      expect(reader.bySeq([])).toEqual([]);
      expect(reader.bySeq([seq(7), seq(3), missing, seq(39), seq(3), seq(0)])).toEqual([
        text(7),
        text(3),
        text(39),
        text(3),
        text(0),
      ]);
      const all = written.map((_, i) => i).reverse();
      expect(reader.bySeq(all.map(seq))).toEqual(all.map(text));
    } finally {
      db.close();
    }
  });
});

describe('eo_catalog_record (the packed record in SQL)', () => {
  it('answers NULL, not an error, when given another instant than its row holds', () => {
    // SQLite puts the constant of a term `c.datetime_us = X` in place of the column in the other
    // terms, also on rows that term then rejects: those calls must not fail the search.
    const db = tempCatalog('records-sql', COMPACT_LAYOUT);
    try {
      const upsert = makeCatalogUpserter(db.sqlite, 'lenient', COMPACT_LAYOUT, 'now');
      const [written] = fc
        .sample(record, { numRuns: 1, seed: 7 })
        .map((r) => ({ ...r, id: 'r0' }) as CatalogRecordOut);
      upsert(written!, links);
      installRecordFunction(db.sqlite);
      const read = (instant: string) =>
        db.sqlite
          .prepare(
            `SELECT eo_catalog_record(c.record, c.id, c.item_id, c.created_at_us, c.updated_at_us,
               ${instant}, c.geometry) FROM catalog_records c`,
          )
          .pluck()
          .get();
      expect(read('c.datetime_us')).toBe(JSON.stringify(written));
      expect(read('coalesce(c.datetime_us, 0) + 1')).toBeNull();
    } finally {
      db.close();
    }
  });
});
