/** Replays every migration on an empty database and compares the result with the drizzle schema. */
import fs from 'node:fs';
import path from 'node:path';
import { CATALOG_RTREE_DDL, COMPACT_LAYOUT } from '@eo/catalog-store';
import {
  catalogSchema,
  freshCatalogSchema,
  migrationLedger,
  replayFootprintBackfill,
  schemaDrift,
  schemaTables,
} from '@eo/catalog-store/testing';
import { getTableConfig } from 'drizzle-orm/sqlite-core';
import { afterAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { MIGRATIONS_FOLDER, openMirrorDatabase, PAGE_SIZE } from '../open';
import * as schema from '../schema';
import { tempDir } from './temp';

const tmp = tempDir('migrations');
afterAll(() => tmp.remove());

const tables = schemaTables(schema);

describe('migrations', () => {
  const local = openMirrorDatabase(path.join(tmp.dir, 'local.db'));
  afterAll(() => local.close());
  const master = local.sqlite
    .prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
    .all() as Array<{ type: string; name: string; tbl_name: string; sql: string | null }>;

  it('creates every table of the schema: columns, keys, indexes, unique columns, foreign keys', () => {
    expect(tables.length).toBeGreaterThanOrEqual(9);
    expect(schemaDrift(local.sqlite, tables)).toEqual([]);
  });

  it('creates every index of the schema, and no other', () => {
    const expected = tables.flatMap((t) => getTableConfig(t).indexes.map((i) => i.config.name));
    const created = master
      .filter((m) => m.type === 'index' && m.sql !== null)
      .map((m) => m.name)
      .filter((n) => !n.endsWith('_unique'));
    expect(created.sort()).toEqual(expected.sort());
  });

  it('creates the catalog R*Tree exactly as the catalog store defines it', () => {
    const rtree = master.find((m) => m.name === 'catalog_rtree');
    expect(rtree?.sql?.replace(/\s+/g, ' ')).toBe(CATALOG_RTREE_DDL);
  });

  it("creates the catalog exactly as @eo/catalog-store's catalogDdl() does (sqlite_schema)", () => {
    const migrated = catalogSchema(local.sqlite);
    // 3 tables, 8 indexes, the R*Tree and its 3 shadows
    expect(migrated.length).toBeGreaterThanOrEqual(15);
    expect(migrated).toEqual(freshCatalogSchema(COMPACT_LAYOUT));
  });

  it('is idempotent: reopening applies nothing twice, and every migration file is journalled', () => {
    const again = openMirrorDatabase(path.join(tmp.dir, 'local.db'));
    const ledger = migrationLedger(again.sqlite, MIGRATIONS_FOLDER);
    again.close();
    expect(ledger.journalled).toEqual(ledger.files);
    expect(ledger.applied).toBe(ledger.files.length);
  });

  it('makes new files with 8 KB pages and leaves an existing file its own', () => {
    expect(PAGE_SIZE).toBe(8192);
    expect(local.sqlite.pragma('page_size', { simple: true })).toBe(8192);
    const file = path.join(tmp.dir, 'old.db');
    const old = new Database(file);
    old.pragma('page_size = 4096');
    old.exec('CREATE TABLE before_mirror (x)');
    old.close();
    const reopened = openMirrorDatabase(file);
    expect(reopened.sqlite.pragma('page_size', { simple: true })).toBe(4096);
    reopened.close();
  });

  it('backfills catalog_footprints (the statement of @eo/catalog-store) as the writers store them', () => {
    const replay = replayFootprintBackfill({
      folder: MIGRATIONS_FOLDER,
      tag: '0006_catalog_footprints',
      dir: fs.mkdtempSync(path.join(tmp.dir, 'backfill-')),
      open: openMirrorDatabase,
    });
    expect(replay.existedBefore).toBe(false);
    expect(replay.backfillVerbatim).toBe(true);
    expect(replay.written.length).toBe(4); // every record but the one without geometry
    expect(replay.backfilled).toEqual(replay.written);
  });
});
