/**
 * Packing later (`packing: 'later'` writers and `makeCatalogPacker`): a record stored as its
 * text reads back byte for byte, and once packed its blob is exactly the one a writer packing
 * at once makes, on as many pages; the list of rows to pack forgets rows deleted or packed since; a batch that
 * rolls back leaves its rows as they were; past `MAX_UNPACKED` waiting rows a writer packs at
 * once.
 */
import type Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { tempCatalog } from '../../__tests__/temp-store';
import { COMPACT_LAYOUT } from '../../layout';
import { makeCatalogRecordReader } from '../../records';
import {
  makeCatalogDeleter,
  makeCatalogUpserter,
  MAX_UNPACKED,
  type CatalogRecordOut,
} from '../../writes';
import { makeCatalogPacker } from '../packing';
import { storedText } from '../record-blob';
import { DICTIONARY_SAMPLES } from '../shared-texts';
import { record } from './arbitrary-records';

const RUNS = Number(process.env.PROP_RUNS ?? 200);
const links = { orgId: 'org', orderId: null, orderItemId: null };

/** Pages the records table takes (dbstat). */
const tablePages = (sqlite: Database.Database) =>
  sqlite
    .prepare("SELECT count(*) FROM dbstat WHERE name = 'catalog_records'")
    .pluck()
    .get() as number;

function catalog(name: string) {
  const db = tempCatalog(name, COMPACT_LAYOUT);
  const blobs = db.sqlite.prepare('SELECT id, record FROM catalog_records ORDER BY seq');
  return {
    db,
    reader: makeCatalogRecordReader(db.sqlite, COMPACT_LAYOUT),
    packer: makeCatalogPacker(db.sqlite),
    blobs: () => blobs.all() as Array<{ id: string; record: Buffer }>,
    listed: db.sqlite.prepare('SELECT seq FROM catalog_unpacked ORDER BY seq').pluck(),
  };
}

describe('records packed later', () => {
  const now = catalog('packing-now');
  const later = catalog('packing-later');
  afterAll(() => {
    now.db.close();
    later.db.close();
  });
  const upsertNow = makeCatalogUpserter(now.db.sqlite, 'lenient', COMPACT_LAYOUT, 'now');
  const upsertLater = makeCatalogUpserter(later.db.sqlite, 'lenient', COMPACT_LAYOUT, 'later');

  it('reads back stored, then packed into the very blobs a writer packing at once makes', () => {
    const written: CatalogRecordOut[] = [];
    fc.assert(
      fc.property(record, (r) => {
        const stored = { ...r, id: `r${written.length}` } as CatalogRecordOut;
        written.push(stored);
        upsertNow(stored, links);
        upsertLater(stored, links);
        expect(later.reader.byId('org', stored.id as string)).toBe(JSON.stringify(stored));
      }),
      { numRuns: RUNS },
    );
    // Enough records for the dictionary to be learned while packing, as it is while writing.
    expect(written.length).toBeGreaterThan(DICTIONARY_SAMPLES);
    expect(later.blobs().every((b) => storedText(b.record) !== null)).toBe(true);
    expect(later.packer.left()).toBe(written.length);

    const batch = later.db.sqlite.transaction(() => later.packer.next(37));
    let progress = batch();
    expect(progress).toEqual({ packed: 37, left: written.length - 37 });
    while (progress.left > 0) progress = batch();

    expect(later.blobs()).toEqual(now.blobs());
    // And on as many pages: packing left no half-empty pages behind.
    expect(tablePages(later.db.sqlite)).toBeLessThanOrEqual(tablePages(now.db.sqlite) * 1.1);
    expect(later.blobs().some((b) => storedText(b.record) !== null)).toBe(false);
    for (const r of written)
      expect(later.reader.byId('org', r.id as string)).toBe(JSON.stringify(r));
  });

  it('drops listed rows that were deleted or packed since, and packs only what is stored', () => {
    const upsertPacked = makeCatalogUpserter(later.db.sqlite, 'lenient', COMPACT_LAYOUT, 'now');
    const gone = { id: 'gone', details: { id: 'g' } } as CatalogRecordOut;
    const repacked = { id: 'repacked', details: { id: 'p' } } as CatalogRecordOut;
    const kept = { id: 'kept', details: { id: 'k' } } as CatalogRecordOut;
    for (const r of [gone, repacked, kept]) upsertLater(r, links);
    expect(later.packer.left()).toBe(3);
    makeCatalogDeleter(later.db.sqlite)(['gone']);
    upsertPacked({ ...repacked, extra: 1 } as CatalogRecordOut, links);

    expect(later.packer.next(10)).toEqual({ packed: 1, left: 0 });
    expect(later.listed.all()).toEqual([]);
    expect(later.reader.byId('org', 'kept')).toBe(JSON.stringify(kept));
    expect(later.reader.byId('org', 'repacked')).toBe(JSON.stringify({ ...repacked, extra: 1 }));
    expect(later.reader.byId('org', 'gone')).toBeNull();
  });

  it('leaves a batch that rolled back as it was: stored, listed, the same text', () => {
    const r = { id: 'rolled', details: { id: 'rolled', properties: { gsd: 3 } } };
    upsertLater(r as CatalogRecordOut, links);
    const failing = later.db.sqlite.transaction(() => {
      expect(later.packer.next(10)).toEqual({ packed: 1, left: 0 });
      throw new Error('killed mid-batch');
    });
    expect(() => failing()).toThrow('killed mid-batch');
    expect(later.packer.left()).toBe(1);
    const blob = later.blobs().find((b) => b.id === 'rolled')!.record;
    expect(storedText(blob)).toBe(JSON.stringify(r));
    expect(later.packer.next(10)).toEqual({ packed: 1, left: 0 });
    expect(later.reader.byId('org', 'rolled')).toBe(JSON.stringify(r));
  });

  it(`packs at once while ${MAX_UNPACKED} rows wait already`, () => {
    const full = catalog('packing-full');
    try {
      // Rows that wait already (their seqs far above the records written here).
      full.db.sqlite.exec(
        `WITH RECURSIVE n(i) AS (SELECT 1000000 UNION ALL SELECT i + 1 FROM n
           WHERE i < ${1_000_000 + MAX_UNPACKED - 2})
         INSERT INTO catalog_unpacked (seq) SELECT i FROM n`,
      );
      const upsert = makeCatalogUpserter(full.db.sqlite, 'lenient', COMPACT_LAYOUT, 'later');
      const first = { id: 'last-stored', details: { id: 'a' } } as CatalogRecordOut;
      const second = { id: 'packed-at-once', details: { id: 'b' } } as CatalogRecordOut;
      upsert(first, links);
      upsert(second, links);
      const [a, b] = full.blobs();
      expect(storedText(a!.record)).toBe(JSON.stringify(first));
      expect(storedText(b!.record)).toBeNull();
      expect(full.packer.left()).toBe(MAX_UNPACKED);
      expect(full.reader.byId('org', 'packed-at-once')).toBe(JSON.stringify(second));
    } finally {
      full.db.close();
    }
  });
});
