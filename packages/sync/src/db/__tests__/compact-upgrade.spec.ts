/**
 * An existing mirror (its catalog as JSON text, from before `0012_compact_catalog`) upgraded in
 * place, on a real SQLite file: every record byte-equal afterwards, none lost, none twice, row
 * numbers kept (the R*Tree and the footprints stay valid), also when the move stops halfway
 * (each batch is one transaction: a kill lands between two, or rolls one back) and the mirror
 * is opened again.
 */
import path from 'node:path';
import {
  COMPACT_LAYOUT,
  installFootprintFunction,
  makeCatalogUpserter,
  type CatalogRecordOut,
} from '@eo/catalog-store';
import { migrationsBefore } from '@eo/catalog-store/testing';
import { DEMO } from '@eo/fixtures';
import { generateCatalogRecords } from '@eo/reference-service';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import { MIRROR_ORG } from '../../mirror/rows';
import { makeOfflineCatalogSearch } from '../../search/catalog';
import { UPGRADE_BATCH } from '../compact-upgrade';
import { MIGRATIONS_FOLDER, openMirrorDatabase } from '../open';
import { tempDir } from './temp';

const tmp = tempDir('compact-upgrade');
afterAll(() => tmp.remove());

const links = { orgId: MIRROR_ORG, orderId: null, orderItemId: null };

/**
 * Stored texts an older version may hold, written here by hand: what `JSON.stringify` never
 * writes (`-0`, `1e21`, `1.0`, spaces, a repeated key), unknown fields, a huge string, text in
 * many scripts and an escaped lone surrogate, and texts that are no catalog record at all.
 */
function hostileTexts(): Array<{ id: string; text: string }> {
  const huge = 'x'.repeat(600_000) + '\u00e9';
  const texts = [
    `{"id":"hostile-numbers","n":-0,"big":1e21,"one":1.0,"tiny":5e-324,"details":{"id":"a","properties":{"eo:cloud_cover":-0,"gsd":1e21,"datetime":"2024-05-17T09:30:00Z"}}}`,
    `{ "id" : "hostile-spaces",\n\t"details" : { "id" : "b" , "id" : "c" } }`,
    `{"id":"hostile-unknown","zzz":{"deep":[[[[{"a":null}]]]]},"details":{"id":"d","unknown":true,"properties":{"platform":"Пирамида 衛星 🛰️","x":"\\ud800"}}}`,
    `{"id":"hostile-huge","details":{"id":"e","properties":{"note":"${huge}"}}}`,
    `{"id":"hostile-controls","details":{"id":"f","properties":{"t":"\\u0001\\u0002 markers"}}}`,
    `[1,2,3]`,
    `not json at all`,
  ];
  return texts.map((text, i) => ({ id: `hostile-${i}`, text }));
}

/** A mirror file as the version before the compact layout wrote it; its texts by id. */
function oldMirror(file: string, count: number): Map<string, { seq: number; text: string }> {
  const sqlite = new Database(file);
  try {
    installFootprintFunction(sqlite);
    const folder = migrationsBefore(
      MIGRATIONS_FOLDER,
      '0012_compact_catalog',
      path.join(tmp.dir, 'migrations-before'),
    );
    migrate(drizzle(sqlite), { migrationsFolder: folder });
    const upsert = makeCatalogUpserter(sqlite, 'lenient');
    const seen = sqlite.prepare(
      'INSERT INTO mirror_catalog_seen (record_id, pass_id) VALUES (?, ?)',
    );
    const setText = sqlite.prepare('UPDATE catalog_records SET record_json = ? WHERE id = ?');
    sqlite.transaction(() => {
      const records = generateCatalogRecords(count, {
        orgId: DEMO.orgId,
        userId: DEMO.users[0].id,
        nowUs: Date.UTC(2026, 0, 1) * 1000,
        idPrefix: 'old',
      });
      for (const r of records) {
        upsert(r, links);
        seen.run(r.id, 'pass-1');
      }
      for (const { id, text } of hostileTexts()) {
        upsert({ id } as unknown as CatalogRecordOut, links);
        setText.run(text, id);
      }
    })();
    const rows = sqlite
      .prepare('SELECT id, seq, record_json AS text FROM catalog_records')
      .all() as Array<{ id: string; seq: number; text: string }>;
    return new Map(rows.map((r) => [r.id, { seq: r.seq, text: r.text }]));
  } finally {
    sqlite.close();
  }
}

const tableExists = (sqlite: Database.Database, name: string) =>
  sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !==
  undefined;

describe('upgrading a mirror to the compact catalog', () => {
  const file = path.join(tmp.dir, 'mirror.db');
  const count = 2 * UPGRADE_BATCH + 300;
  const before = oldMirror(file, count);

  it('stops halfway with every record in exactly one of the two tables', () => {
    expect(before.size).toBe(count + hostileTexts().length);
    let batches = 0;
    // A run that ends after its first committed batch: what a kill between batches leaves.
    expect(() =>
      openMirrorDatabase(file, {
        onUpgrade: () => {
          if (++batches === 1) throw new Error('stopped');
        },
      }),
    ).toThrow('stopped');
    const sqlite = new Database(file, { readonly: true });
    try {
      const moved = sqlite.prepare('SELECT id FROM catalog_records').pluck().all() as string[];
      const left = sqlite.prepare('SELECT id FROM catalog_records_json').pluck().all() as string[];
      expect(moved).toHaveLength(UPGRADE_BATCH);
      expect(moved.length + left.length).toBe(before.size);
      expect(new Set([...moved, ...left]).size).toBe(before.size);
    } finally {
      sqlite.close();
    }
  });

  it('resumes on the next open: every record byte-equal, its row number kept, none twice', () => {
    const progress: number[] = [];
    const local = openMirrorDatabase(file, { onUpgrade: (p) => progress.push(p.moved) });
    try {
      const { sqlite } = local;
      expect(progress.at(-1)).toBe(before.size - UPGRADE_BATCH);
      expect(tableExists(sqlite, 'catalog_records_json')).toBe(false);
      const rows = sqlite
        .prepare(`SELECT c.id, c.seq, ${COMPACT_LAYOUT.recordSql} AS text FROM catalog_records c`)
        .all() as Array<{ id: string; seq: number; text: string }>;
      expect(rows).toHaveLength(before.size);
      let differ = 0;
      for (const r of rows) {
        const was = before.get(r.id);
        if (was === undefined || was.text !== r.text || was.seq !== r.seq) differ++;
      }
      expect(differ).toBe(0);
      // The marks of the last pass came along (the seen table is rebuilt WITHOUT ROWID).
      const seen = sqlite.prepare('SELECT count(*) FROM mirror_catalog_seen').pluck().get();
      expect(seen).toBe(count);
      // Search reads the moved rows: the R*Tree (row numbers) and the columns agree.
      const search = makeOfflineCatalogSearch(sqlite);
      const all = search({ limit: 1, offset: 0 });
      expect(all.pagination.total).toBe(before.size);
      const spatial = search({
        limit: 5,
        offset: 0,
        intersects: {
          type: 'Polygon',
          coordinates: [
            [
              [-180, -90],
              [180, -90],
              [180, 90],
              [-180, 90],
              [-180, -90],
            ],
          ],
        },
      });
      expect(spatial.catalogs.length).toBeGreaterThan(0);
      for (const r of spatial.catalogs)
        expect(JSON.stringify(r)).toBe(JSON.stringify(JSON.parse(before.get(r.id)!.text)));
      // New rows continue after the old ones.
      const maxOld = Math.max(...[...before.values()].map((v) => v.seq));
      makeCatalogUpserter(
        sqlite,
        'lenient',
        COMPACT_LAYOUT,
      )({ id: 'after-upgrade' } as unknown as CatalogRecordOut, links);
      const seq = sqlite
        .prepare("SELECT seq FROM catalog_records WHERE id = 'after-upgrade'")
        .pluck()
        .get() as number;
      expect(seq).toBeGreaterThan(maxOld);
    } finally {
      local.close();
    }
  });

  it('is a no-op on a mirror already upgraded', () => {
    const progress: number[] = [];
    const local = openMirrorDatabase(file, { onUpgrade: (p) => progress.push(p.moved) });
    local.close();
    expect(progress).toEqual([]);
  });
});
