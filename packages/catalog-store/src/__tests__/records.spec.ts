/**
 * Whole records by row number (`bySeq`, what a search page decodes after sorting row numbers):
 * in the order asked, a row asked twice read twice, a number without a row left out, in both
 * layouts, each record byte-equal to what was written.
 */
import zlib from 'node:zlib';
import fc from 'fast-check';
import { CatalogSearchRequest } from '@eo/domain';
import { describe, expect, it, vi } from 'vitest';
import { record } from '../compact/__tests__/arbitrary-records';
import { COMPACT_LAYOUT, JSON_LAYOUT } from '../layout';
import { installRecordFunction, makeCatalogRecordReader } from '../records';
import { installSearchFunctions, makeCatalogListSearch } from '../search';
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

  it('decodes each row once for a sort or a filter on a path no column holds', () => {
    // The sort names the record four times a row and a `query` twice: each used to decode it.
    const db = tempCatalog('records-sql-once', COMPACT_LAYOUT);
    const inflate = vi.spyOn(zlib, 'inflateRawSync');
    try {
      const upsert = makeCatalogUpserter(db.sqlite, 'lenient', COMPACT_LAYOUT, 'now');
      const azimuths = [170, 20, 95, 20, 300, 5, 250, 140, 60, 200];
      azimuths.forEach((azimuth, i) =>
        upsert(
          {
            id: `r${i}`,
            details: {
              id: `item-${i}`,
              properties: {
                datetime: `2024-05-${String(i + 1).padStart(2, '0')}T10:00:00Z`,
                'view:sun_azimuth': azimuth,
              },
            },
          } as unknown as CatalogRecordOut,
          links,
        ),
      );
      installSearchFunctions(db.sqlite, COMPACT_LAYOUT);
      const search = makeCatalogListSearch(db.sqlite, COMPACT_LAYOUT);
      const run = (req: object) => {
        inflate.mockClear();
        const page = search('org', CatalogSearchRequest.parse({ limit: 5, ...req }));
        return {
          ids: page.rows.map((r) => r.id),
          total: page.total,
          decoded: inflate.mock.calls.length,
        };
      };

      expect(run({ sort_by: [{ field: 'view:sun_azimuth', direction: 'asc' }] })).toEqual({
        ids: ['r5', 'r1', 'r3', 'r8', 'r2'],
        total: 10,
        decoded: 10,
      });
      // The page and its total are two statements: each reads every row once at most (the
      // last row of one may be the first of the next, kept).
      const filtered = run({ query: { 'view:sun_azimuth': { gte: 150 } } });
      expect(filtered).toMatchObject({ ids: ['r9', 'r6', 'r4', 'r0'], total: 4 });
      expect(filtered.decoded).toBeGreaterThanOrEqual(10);
      expect(filtered.decoded).toBeLessThanOrEqual(20);
    } finally {
      inflate.mockRestore();
      db.close();
    }
  });
});
