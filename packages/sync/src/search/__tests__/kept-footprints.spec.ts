/**
 * The first screen's footprints kept across launches (`kept-footprints.ts`): read at the next
 * launch instead of every ring, and never older than the catalog. Each "launch" is a new
 * `makeCatalogFootprints` on the same mirror file; writers run on the same connection and on
 * another one (the sync's write thread has its own).
 */
import path from 'node:path';
import { makeCatalogDeleter } from '@eo/catalog-store';
import { CatalogSearchRequest } from '@eo/domain';
import type Database from 'better-sqlite3';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMirrorConnection } from '../../db/connection';
import { openMirrorDatabase, type MirrorDatabase } from '../../db/open';
import { tempDir } from '../../db/__tests__/temp';
import { makeOfflineCatalogSearch } from '../catalog';
import { footprintIds, makeCatalogFootprints, type CatalogFootprints } from '../footprints';
import { putSquare as put } from './square-record';

const tmp = tempDir('kept-footprints');
afterAll(() => tmp.remove());

let db: MirrorDatabase;
let other: Database.Database;
let n = 0;
beforeEach(() => {
  db = openMirrorDatabase(path.join(tmp.dir, `mirror-${++n}.db`));
  makeOfflineCatalogSearch(db.sqlite); // installs eo_intersects and eo_rfc3339
  other = openMirrorConnection(db.file);
  makeOfflineCatalogSearch(other);
  put(db.sqlite, 'a', 0, 0);
  put(db.sqlite, 'b', 10, 10);
});
afterEach(() => {
  other.close();
  db.close();
});

const all = CatalogSearchRequest.parse({});
/** id -> its ring's first longitude, whatever the answer's order. */
function firstLon(fp: CatalogFootprints): Record<string, number> {
  return Object.fromEntries(footprintIds(fp).map((id, i) => [id, fp.coords[fp.offsets[i]! * 2]!]));
}
const keptRows = () =>
  db.sqlite.prepare('SELECT count(*) FROM mirror_footprints_kept').pluck().get() as number;
/** Launch, read the first screen's footprints, keep them: the launch before the next one. */
function launchAndKeep(): void {
  const fp = makeCatalogFootprints(db.sqlite);
  fp.footprints(all);
  expect(fp.keep()).toBe(true);
  expect(keptRows()).toBe(1);
}
/** Moves record a's kept ring by 100 degrees: an answer read from the kept row shows it. */
function markKept(): void {
  const row = db.sqlite.prepare('SELECT ids, coords FROM mirror_footprints_kept').get() as {
    ids: string;
    coords: Buffer;
  };
  // The ids joined: each is one character here, so a's place in the text is its index.
  const at = row.ids.indexOf('a');
  const coords = new Float32Array(new Uint8Array(row.coords).buffer);
  // Ring a's first point: offsets are of points, each two floats; a is 4 points.
  coords[at * 4 * 2] = coords[at * 4 * 2]! + 100;
  db.sqlite.prepare('UPDATE mirror_footprints_kept SET coords = ?').run(Buffer.from(coords.buffer));
}

describe('footprints kept for the next launch', () => {
  it('are read at the next launch instead of the rings', () => {
    launchAndKeep();
    markKept();
    expect(firstLon(makeCatalogFootprints(db.sqlite).footprints(all))).toEqual({ a: 100, b: 10 });
  });

  it('are dropped by every change to the catalog, on this connection or another', () => {
    const changes: [string, (s: Database.Database) => void, Record<string, number>][] = [
      ['a record added', (s) => put(s, 'c', 20, 20), { a: 0, b: 10, c: 20 }],
      ['a record changed', (s) => put(s, 'b', 30, 30), { a: 0, b: 30 }],
      ['a record deleted', (s) => makeCatalogDeleter(s)(['b']), { a: 0 }],
      [
        'a ring rewritten',
        (s) =>
          s.exec(
            "UPDATE catalog_footprints SET ring = ring WHERE seq = (SELECT seq FROM catalog_records WHERE id = 'a')",
          ),
        { a: 0, b: 10 },
      ],
      [
        'a record renamed (no writer does: the guard holds anyway)',
        (s) => s.exec("UPDATE catalog_records SET id = 'z' WHERE id = 'b'"),
        { a: 0, z: 10 },
      ],
    ];
    for (const [what, change, expected] of changes) {
      for (const connection of [db.sqlite, other]) {
        launchAndKeep();
        markKept();
        change(connection);
        expect(keptRows(), `${what}: the kept answer is gone`).toBe(0);
        expect(firstLon(makeCatalogFootprints(db.sqlite).footprints(all)), what).toEqual(expected);
        // Back to a and b for the next change.
        makeCatalogDeleter(db.sqlite)(['a', 'b', 'c', 'z']);
        put(db.sqlite, 'a', 0, 0);
        put(db.sqlite, 'b', 10, 10);
      }
    }
  });

  it('are not kept when another connection wrote after they were read', () => {
    const fp = makeCatalogFootprints(db.sqlite);
    fp.footprints(all);
    other.exec("UPDATE mirror_orders SET status = status WHERE id = 'none'"); // commits nothing
    put(other, 'c', 20, 20);
    expect(fp.keep()).toBe(false);
    expect(keptRows()).toBe(0);
  });

  it('are not kept, never waited for, while another connection writes', () => {
    const fp = makeCatalogFootprints(db.sqlite);
    fp.footprints(all);
    other.exec('BEGIN IMMEDIATE');
    try {
      expect(fp.keep()).toBe(false);
    } finally {
      other.exec('ROLLBACK');
    }
    expect(db.sqlite.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(keptRows()).toBe(0);
  });

  it('stay through changes that leave every id and ring as they were', () => {
    launchAndKeep();
    db.sqlite.exec("UPDATE catalog_records SET order_id = 'ord-1', cloud_cover = 5 WHERE id = 'a'");
    expect(keptRows()).toBe(1);
  });

  it('are kept only for the search of every record', () => {
    const fp = makeCatalogFootprints(db.sqlite);
    fp.footprints(CatalogSearchRequest.parse({ bbox: [-1, -1, 2, 2] }));
    expect(fp.keep()).toBe(false);
    fp.footprints(CatalogSearchRequest.parse({ datetime: '2020-01-01T00:00:00Z/..' }));
    expect(fp.keep()).toBe(false);
    fp.footprints(all);
    expect(fp.keep()).toBe(true);
    expect(fp.keep()).toBe(false); // once per answer
  });

  it('keep nothing for an empty mirror', () => {
    makeCatalogDeleter(db.sqlite)(['a', 'b']);
    const fp = makeCatalogFootprints(db.sqlite);
    expect(footprintIds(fp.footprints(all))).toEqual([]);
    expect(fp.keep()).toBe(false);
  });

  it('are another search answer only for the same compiled search', () => {
    launchAndKeep();
    markKept();
    const fp = makeCatalogFootprints(db.sqlite);
    const cloudy = CatalogSearchRequest.parse({ query: { 'eo:cloud_cover': { lte: 20 } } });
    expect(firstLon(fp.footprints(cloudy))).toEqual({});
    expect(firstLon(fp.footprints(all))).toEqual({ a: 100, b: 10 });
  });

  it('keep ids of any text as they were read: accents, astral characters, the old separator', () => {
    const odd = ['é-1', '\u{1F6F0}\u{FE0F} sat', 'odd\u001eid'];
    odd.forEach((id, i) => put(db.sqlite, id, 20 + i, 20));
    const fresh = makeCatalogFootprints(db.sqlite);
    const read = fresh.footprints(all);
    expect(fresh.keep()).toBe(true);
    const kept = makeCatalogFootprints(db.sqlite).footprints(all);
    expect(kept).not.toBe(read);
    expect(footprintIds(kept)).toEqual(footprintIds(read));
    expect(footprintIds(kept).sort()).toEqual(['a', 'b', ...odd].sort());
    expect([kept.idText, [...kept.idOffsets], [...kept.offsets], [...kept.coords]]).toEqual([
      read.idText,
      [...read.idOffsets],
      [...read.offsets],
      [...read.coords],
    ]);
  });

  it('are read again from the rings when the kept row is damaged', () => {
    launchAndKeep();
    db.sqlite.prepare("UPDATE mirror_footprints_kept SET offsets = x'00000000'").run();
    expect(firstLon(makeCatalogFootprints(db.sqlite).footprints(all))).toEqual({ a: 0, b: 10 });
    // Id offsets that do not end at the ids' length, or fall.
    for (const ids of ['000000000100000003000000', '000000000300000002000000']) {
      launchAndKeep();
      markKept();
      db.sqlite.prepare(`UPDATE mirror_footprints_kept SET id_offsets = x'${ids}'`).run();
      expect(firstLon(makeCatalogFootprints(db.sqlite).footprints(all))).toEqual({ a: 0, b: 10 });
    }
    db.sqlite.prepare('UPDATE mirror_footprints_kept SET n = 3').run();
    expect(firstLon(makeCatalogFootprints(db.sqlite).footprints(all))).toEqual({ a: 0, b: 10 });
  });

  it('are dropped at the next open when a trigger went missing (a table rebuilt)', () => {
    launchAndKeep();
    db.sqlite.exec('DROP TRIGGER catalog_footprints_insert_drops_kept_footprints');
    const fp = makeCatalogFootprints(db.sqlite);
    expect(keptRows()).toBe(0);
    put(db.sqlite, 'c', 20, 20);
    expect(firstLon(fp.footprints(all))).toEqual({ a: 0, b: 10, c: 20 });
    expect(fp.keep()).toBe(true);
    put(db.sqlite, 'd', 30, 30); // the trigger is back
    expect(keptRows()).toBe(0);
  });
});
