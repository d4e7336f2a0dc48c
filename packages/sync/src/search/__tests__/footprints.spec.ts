/**
 * The mirror's footprints answer on a hand-made mirror: ids that hold the one-row answer's
 * separator and damaged ring rows (both read row by row), and a spatial search.
 */
import path from 'node:path';
import { makeCatalogDeleter } from '@eo/catalog-store';
import { CatalogSearchRequest } from '@eo/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { openMirrorDatabase } from '../../db/open';
import { tempDir } from '../../db/__tests__/temp';
import { makeOfflineCatalogSearch } from '../catalog';
import { footprintIds, makeCatalogFootprints } from '../footprints';
import { putSquare } from './square-record';

const tmp = tempDir('footprints');
const db = openMirrorDatabase(path.join(tmp.dir, 'mirror.db'));
afterAll(() => {
  db.close();
  tmp.remove();
});
makeOfflineCatalogSearch(db.sqlite); // installs eo_intersects and eo_rfc3339

const put = (id: string, x: number, y: number) => putSquare(db.sqlite, id, x, y);

const all = CatalogSearchRequest.parse({});
/** id -> its ring, for comparing answers whatever their order. */
function byId(fp: ReturnType<ReturnType<typeof makeCatalogFootprints>['footprints']>) {
  return Object.fromEntries(
    footprintIds(fp).map((id, i) => [
      id,
      [...fp.coords.subarray(fp.offsets[i]! * 2, fp.offsets[i + 1]! * 2)],
    ]),
  );
}

describe('catalog footprints of the mirror', () => {
  it('reads every match with its ring, and only the matches of a spatial search', () => {
    put('a', 0, 0);
    put('b', 10, 10);
    put('c', 20, 20);
    expect(byId(makeCatalogFootprints(db.sqlite).footprints(all))).toEqual({
      a: [0, 0, 1, 0, 1, 1, 0, 1],
      b: [10, 10, 11, 10, 11, 11, 10, 11],
      c: [20, 20, 21, 20, 21, 21, 20, 21],
    });
    const near = CatalogSearchRequest.parse({ bbox: [9, 9, 12, 12] });
    expect(footprintIds(makeCatalogFootprints(db.sqlite).footprints(near))).toEqual(['b']);
  });

  it('an id holding the separator is read whole', () => {
    put('odd\u001eid', 30, 30);
    const got = byId(makeCatalogFootprints(db.sqlite).footprints(all));
    expect(Object.keys(got).sort()).toEqual(['a', 'b', 'c', 'odd\u001eid']);
    expect(got['odd\u001eid']).toEqual([30, 30, 31, 30, 31, 31, 30, 31]);
  });

  it('a damaged ring row (not whole points) is left out, the others kept', () => {
    db.sqlite
      .prepare(
        "UPDATE catalog_footprints SET ring = x'0000803f' WHERE seq = (SELECT seq FROM catalog_records WHERE id = 'b')",
      )
      .run();
    const got = byId(makeCatalogFootprints(db.sqlite).footprints(all));
    expect(Object.keys(got).sort()).toEqual(['a', 'c', 'odd\u001eid']);
    expect(got.c).toEqual([20, 20, 21, 20, 21, 21, 20, 21]);
  });

  it('ids of any text are read in one row, each one whole (UTF-16 offsets)', () => {
    // Without the separator's id and the damaged ring: read in one row, not row by row.
    makeCatalogDeleter(db.sqlite)(['odd\u001eid', 'b']);
    const odd = ['é-1', '\u{1F6F0}\u{FE0F} sat'];
    odd.forEach((id, i) => put(id, 40 + i, 40));
    const fp = makeCatalogFootprints(db.sqlite).footprints(all);
    const ids = footprintIds(fp);
    expect(ids.sort()).toEqual(['a', 'c', ...odd].sort());
    expect(fp.idOffsets[fp.idOffsets.length - 1]).toBe(fp.idText.length);
    expect(fp.idText).toBe(footprintIds(fp).join(''));
    expect(byId(fp)['\u{1F6F0}\u{FE0F} sat']).toEqual([41, 40, 42, 40, 42, 41, 41, 41]);
  });
});
