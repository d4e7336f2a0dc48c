/**
 * Whole records by row number (`bySeq`, what a search page decodes after sorting row numbers):
 * in the order asked, a row asked twice read twice, a number without a row left out, in both
 * layouts, each record byte-equal to what was written.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { record } from '../compact/__tests__/arbitrary-records';
import { COMPACT_LAYOUT, JSON_LAYOUT } from '../layout';
import { makeCatalogRecordReader } from '../records';
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
