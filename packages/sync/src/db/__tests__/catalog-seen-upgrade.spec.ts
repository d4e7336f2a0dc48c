/**
 * `0013_catalog_seen_numbers` on a real mirror file (compact catalog, marks of two passes as the
 * engine names them): the seen marks by pass number, read back through the view as they were;
 * the mirror's own indexes, as @eo/catalog-store's compact layout defines them; every record
 * row byte-equal (the migration leaves records alone). A run stopped inside the migration
 * leaves the file as it was (one transaction), and the next open does it all.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { COMPACT_LAYOUT, installFootprintFunction, makeCatalogUpserter } from '@eo/catalog-store';
import { catalogSchema, freshCatalogSchema, migrationsBefore } from '@eo/catalog-store/testing';
import { DEMO } from '@eo/fixtures';
import { generateCatalogRecords } from '@eo/reference-service';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { MIRROR_ORG } from '../../mirror/rows';
import { makeMirrorWriters } from '../../mirror/writers';
import { MIGRATIONS_FOLDER, openMirrorDatabase } from '../open';
import { tempDir } from './temp';

const tmp = tempDir('catalog-seen-upgrade');
afterAll(() => tmp.remove());

const TAG = '0013_catalog_seen_numbers';
const passA = randomUUID();
const passB = randomUUID();
/** A mark whose record is not stored (kept as it is) and ids a real service may spell. */
const ODD_IDS = ['  Cat-ÉTÉ-1  ', 'cat 🛰️ 2', 'orphan-without-record'];

interface Before {
  readonly rows: unknown[];
  readonly marks: Array<{ record_id: string; pass_id: string }>;
}

const allRows = (sqlite: Database.Database) =>
  sqlite.prepare('SELECT * FROM catalog_records ORDER BY seq').all();
const allMarks = (sqlite: Database.Database) =>
  sqlite
    .prepare('SELECT record_id, pass_id FROM mirror_catalog_seen ORDER BY record_id')
    .all() as Before['marks'];

/** A compact mirror as the version before 0013 wrote it: records, and marks with pass UUIDs. */
function mirrorBefore(file: string, count: number): Before {
  const sqlite = new Database(file);
  try {
    installFootprintFunction(sqlite);
    const folder = migrationsBefore(MIGRATIONS_FOLDER, TAG, path.join(tmp.dir, 'before'));
    migrate(drizzle(sqlite), { migrationsFolder: folder });
    const upsert = makeCatalogUpserter(sqlite, 'lenient', COMPACT_LAYOUT);
    const mark = sqlite.prepare(
      'INSERT INTO mirror_catalog_seen (record_id, pass_id) VALUES (?, ?)',
    );
    sqlite.transaction(() => {
      const records = generateCatalogRecords(count, {
        orgId: DEMO.orgId,
        userId: DEMO.users[0].id,
        nowUs: Date.UTC(2026, 0, 1) * 1000,
        idPrefix: 'seen',
      });
      let i = 0;
      for (const r of records) {
        upsert(r, { orgId: MIRROR_ORG, orderId: null, orderItemId: null });
        mark.run(r.id, i++ % 2 === 0 ? passA : passB);
      }
      for (const id of ODD_IDS) mark.run(id, passB);
    })();
    return { rows: allRows(sqlite), marks: allMarks(sqlite) };
  } finally {
    sqlite.close();
  }
}

/** All migrations, 0013 ending in a statement that fails: a run stopped inside it. */
function stoppedMigrations(): string {
  const folder = path.join(tmp.dir, 'stopped');
  fs.cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const file = path.join(folder, `${TAG}.sql`);
  fs.appendFileSync(file, '--> statement-breakpoint\nSELECT no_such_function();');
  return folder;
}

const kindOf = (sqlite: Database.Database, name: string) =>
  (sqlite.prepare('SELECT type FROM sqlite_master WHERE name = ?').pluck().get(name) as
    string | undefined) ?? null;

describe('numbering the catalog seen marks (0013)', () => {
  const file = path.join(tmp.dir, 'mirror.db');
  const count = 1_500;
  const before = mirrorBefore(file, count);

  it('leaves the file as it was when stopped inside the migration', () => {
    const sqlite = new Database(file);
    try {
      installFootprintFunction(sqlite);
      expect(() => migrate(drizzle(sqlite), { migrationsFolder: stoppedMigrations() })).toThrow(
        /no_such_function/,
      );
      expect(kindOf(sqlite, 'mirror_catalog_seen')).toBe('table');
      expect(kindOf(sqlite, 'mirror_catalog_seen_marks')).toBeNull();
      expect(kindOf(sqlite, 'catalog_org_dt_desc')).toBe('index');
      expect(allMarks(sqlite)).toEqual(before.marks);
    } finally {
      sqlite.close();
    }
  });

  it('upgrades on the next open: the same marks by number, records byte-equal, the layout of catalogDdl', () => {
    const local = openMirrorDatabase(file);
    try {
      const { sqlite } = local;
      expect(before.marks).toHaveLength(count + ODD_IDS.length);
      expect(kindOf(sqlite, 'mirror_catalog_seen')).toBe('view');
      expect(allMarks(sqlite)).toEqual(before.marks);
      expect(
        sqlite.prepare('SELECT pass_id FROM mirror_catalog_passes ORDER BY pass_id').pluck().all(),
      ).toEqual([passA, passB].sort());
      expect(allRows(sqlite)).toEqual(before.rows);
      expect(catalogSchema(sqlite)).toEqual(freshCatalogSchema(COMPACT_LAYOUT));
    } finally {
      local.close();
    }
  });

  it("sweeps by number: another pass's records and marks go, and that pass with them", () => {
    const local = openMirrorDatabase(file);
    try {
      const { sqlite } = local;
      const writer = makeMirrorWriters(sqlite).catalogs;
      const removed = sqlite.transaction(() => writer.sweep(passB))();
      expect(removed).toBe(count / 2);
      expect(allMarks(sqlite)).toEqual(before.marks.filter((m) => m.pass_id === passB));
      expect(sqlite.prepare('SELECT pass_id FROM mirror_catalog_passes').pluck().all()).toEqual([
        passB,
      ]);
      // A new pass numbers itself and marks what it writes.
      const passC = randomUUID();
      const kept = writer.unseen!(passC).find((id) => id.startsWith('seen'))!;
      writer.write([writer.read!(kept)], passC);
      expect(writer.unseen!(passC)).not.toContain(kept);
      expect(writer.unseen!(passC)).toHaveLength(count / 2 + ODD_IDS.length - 1);
    } finally {
      local.close();
    }
  });
});
