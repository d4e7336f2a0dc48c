/**
 * `0016_footprints_kept_id_offsets` on a mirror file the version before wrote: a kept answer of
 * the old layout (ids joined by a separator) and the triggers that drop it. After the upgrade
 * the old answer is gone (never read in the new layout), every record is still there, and the
 * next launch reads the rings, keeps them in the new layout and the triggers drop them again.
 */
import path from 'node:path';
import { installFootprintFunction } from '@eo/catalog-store';
import { migrationsBefore } from '@eo/catalog-store/testing';
import { CatalogSearchRequest } from '@eo/domain';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, openMirrorDatabase } from '../../db/open';
import { tempDir } from '../../db/__tests__/temp';
import { makeOfflineCatalogSearch } from '../catalog';
import { footprintIds, makeCatalogFootprints } from '../footprints';
import { putSquare as put } from './square-record';

const tmp = tempDir('kept-footprints-upgrade');
afterAll(() => tmp.remove());

const TAG = '0016_footprints_kept_id_offsets';
const all = CatalogSearchRequest.parse({});
const kept = (sqlite: Database.Database) =>
  sqlite.prepare('SELECT count(*) FROM mirror_footprints_kept').pluck().get() as number;
const triggers = (sqlite: Database.Database) =>
  sqlite
    .prepare("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%kept%'")
    .pluck()
    .get() as number;

/** A mirror as the version before wrote it: two records, their answer kept, one trigger. */
function mirrorBefore(file: string): void {
  const sqlite = new Database(file);
  try {
    installFootprintFunction(sqlite);
    const folder = migrationsBefore(MIGRATIONS_FOLDER, TAG, path.join(tmp.dir, 'before'));
    migrate(drizzle(sqlite), { migrationsFolder: folder });
    put(sqlite, 'a', 0, 0);
    put(sqlite, 'b', 10, 10);
    sqlite.exec(
      `CREATE TRIGGER catalog_footprints_insert_drops_kept_footprints AFTER INSERT ON catalog_footprints
         WHEN EXISTS (SELECT 1 FROM mirror_footprints_kept)
         BEGIN DELETE FROM mirror_footprints_kept; END`,
    );
    const u32 = (...v: number[]) => Buffer.from(Uint32Array.from(v).buffer);
    sqlite
      .prepare('INSERT INTO mirror_footprints_kept VALUES (?, 2, ?, ?, ?)')
      .run('old', `a${String.fromCharCode(30)}b`, u32(0, 4, 8), Buffer.alloc(64));
  } finally {
    sqlite.close();
  }
}

describe('the kept footprints upgrade (0016)', () => {
  it('drops the old answer, keeps every record, and keeps the next one in the new layout', () => {
    const file = path.join(tmp.dir, 'mirror.db');
    mirrorBefore(file);
    const db = openMirrorDatabase(file);
    try {
      expect(kept(db.sqlite)).toBe(0);
      expect(triggers(db.sqlite)).toBe(0);
      makeOfflineCatalogSearch(db.sqlite);
      const launch = makeCatalogFootprints(db.sqlite);
      expect(triggers(db.sqlite)).toBe(5);
      const read = launch.footprints(all);
      expect(footprintIds(read).sort()).toEqual(['a', 'b']);
      expect(launch.keep()).toBe(true);
      const next = makeCatalogFootprints(db.sqlite).footprints(all);
      expect([next.idText, [...next.idOffsets]]).toEqual([read.idText, [...read.idOffsets]]);
      put(db.sqlite, 'c', 20, 20);
      expect(kept(db.sqlite)).toBe(0);
    } finally {
      db.close();
    }
  });
});
