/**
 * The catalog store's writers on the mirror's schema: an upsert replaces a record in place (same
 * row, moved R*Tree entry, refreshed columns), a delete takes the R*Tree entry with it, and a
 * sweep removes exactly the records an older pass saw.
 */
import path from 'node:path';
import {
  COMPACT_LAYOUT,
  makeCatalogDeleter,
  makeCatalogUpserter,
  type CatalogRecordOut,
} from '@eo/catalog-store';
import { afterAll, describe, expect, it } from 'vitest';
import { openMirrorDatabase } from '../../db/open';
import { tempDir } from '../../db/__tests__/temp';
import { MIRROR_ORG } from '../rows';
import { makeMirrorWriters } from '../writers';

const tmp = tempDir('catalog-writes');
const db = openMirrorDatabase(path.join(tmp.dir, 'mirror.db'));
afterAll(() => {
  db.close();
  tmp.remove();
});

function record(
  id: string,
  box: [number, number, number, number],
  cloud: unknown,
): CatalogRecordOut {
  const [w, s, e, n] = box;
  return {
    id,
    task_id: null,
    details: {
      type: 'Feature',
      id: `item-${id}`,
      collection: 'col-a',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [w, s],
            [e, s],
            [e, n],
            [w, n],
            [w, s],
          ],
        ],
      },
      properties: { datetime: '2024-05-01T10:00:00Z', 'eo:cloud_cover': cloud },
    },
    created_at: '2024-05-01T10:00:00.000000Z',
  } as unknown as CatalogRecordOut;
}

const links = { orgId: MIRROR_ORG, orderId: null, orderItemId: null };
const row = (id: string) =>
  db.sqlite
    .prepare(
      `SELECT c.seq, c.cloud_cover, r.min_lon, r.max_lon FROM catalog_records c
       LEFT JOIN catalog_rtree r ON r.seq = c.seq WHERE c.id = ?`,
    )
    .get(id) as
    { seq: number; cloud_cover: number | null; min_lon: number; max_lon: number } | undefined;
const count = (table: string) =>
  (db.sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

describe('catalog store writers on the mirror', () => {
  const upsert = makeCatalogUpserter(db.sqlite, 'strict', COMPACT_LAYOUT);
  const remove = makeCatalogDeleter(db.sqlite);

  it('an upsert of a known id keeps its row and moves its R*Tree entry', () => {
    upsert(record('r1', [10, 10, 11, 11], 20), links);
    const first = row('r1')!;
    expect(first).toMatchObject({ cloud_cover: 20, min_lon: 10, max_lon: 11 });
    upsert(record('r1', [50, 10, 52, 11], 'cloudy'), links);
    const second = row('r1')!;
    expect(second.seq).toBe(first.seq);
    // A non-number value leaves the typed column empty (search reads it from the JSON).
    expect(second).toMatchObject({ cloud_cover: null, min_lon: 50, max_lon: 52 });
    expect(count('catalog_rtree')).toBe(count('catalog_records'));
  });

  it('delete by ids removes the rows and their R*Tree entries, and ignores unknown ids', () => {
    upsert(record('r2', [0, 0, 1, 1], 5), links);
    upsert(record('r3', [0, 0, 1, 1], 5), links);
    expect(remove(['r2', 'nope'])).toBe(1);
    expect(row('r2')).toBeUndefined();
    expect(row('r3')).toBeDefined();
    expect(count('catalog_rtree')).toBe(count('catalog_records'));
    expect(remove([])).toBe(0);
  });

  it('the mirror sweep deletes the records an older pass saw, and only those', () => {
    const w = makeMirrorWriters(db.sqlite).catalogs;
    w.write([record('s1', [1, 1, 2, 2], 1), record('s2', [1, 1, 2, 2], 1)], 'old');
    w.write([record('s2', [1, 1, 2, 2], 1), record('s3', [1, 1, 2, 2], 1)], 'new');
    // The sweep goes by the pass that saw each record; r1 and r3 above were written by the
    // store directly, with no pass, and are not the mirror's to sweep.
    expect(w.sweep('new')).toBe(1);
    expect(row('s1')).toBeUndefined();
    expect(row('s2')).toBeDefined();
    expect(row('s3')).toBeDefined();
    expect(row('r1')).toBeDefined();
  });
});
