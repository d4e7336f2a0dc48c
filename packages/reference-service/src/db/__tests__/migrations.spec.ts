/**
 * Replays every migration under packages/reference-service/drizzle on an empty database and compares the
 * result with the drizzle schema, so a schema edit without its migration (or the reverse) fails.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CATALOG_RTREE_DDL } from '@eo/catalog-store';
import {
  catalogSchema,
  freshCatalogSchema,
  migrationLedger,
  replayFootprintBackfill,
  schemaDrift,
  schemaTables,
} from '@eo/catalog-store/testing';
import Database from 'better-sqlite3';
import { getTableConfig } from 'drizzle-orm/sqlite-core';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, openDatabase, PAGE_SIZE } from '../client';
import * as schema from '../schema';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-server-migrations-'));
const file = path.join(dir, 'service.db');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const tables = schemaTables(schema);

describe('server migrations', () => {
  const service = openDatabase(file);
  afterAll(() => service.close());
  const master = service.sqlite
    .prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
    .all() as Array<{ type: string; name: string; sql: string | null }>;
  const oneLine = (sql: string | null | undefined) => sql?.replace(/\s+/g, ' ');

  it('makes new files with 16 KB pages and leaves an existing file its own', () => {
    expect(PAGE_SIZE).toBe(16384);
    expect(service.sqlite.pragma('page_size', { simple: true })).toBe(16384);
    const oldFile = path.join(dir, 'old.db');
    const old = new Database(oldFile);
    old.pragma('page_size = 4096');
    old.exec('CREATE TABLE before_service (x)');
    old.close();
    const reopened = openDatabase(oldFile);
    expect(reopened.sqlite.pragma('page_size', { simple: true })).toBe(4096);
    reopened.close();
  });

  it('creates every table of the schema: columns, keys, indexes, unique columns, foreign keys', () => {
    expect(tables.length).toBeGreaterThanOrEqual(15);
    expect(schemaDrift(service.sqlite, tables)).toEqual([]);
  });

  it('creates no table the schema does not describe (besides the R*Trees and their shadows)', () => {
    const described = new Set(tables.map((t) => getTableConfig(t).name));
    const rtrees = master.filter((m) => m.sql?.includes('USING rtree')).map((m) => m.name);
    const extra = master
      .filter((m) => m.type === 'table' && !described.has(m.name))
      .map((m) => m.name)
      .filter((n) => n !== '__drizzle_migrations')
      .filter((n) => !rtrees.some((r) => n === r || n.startsWith(`${r}_`)));
    expect(extra).toEqual([]);
  });

  it('creates the catalog R*Tree exactly as the catalog store defines it, and the archive one', () => {
    expect(oneLine(master.find((m) => m.name === 'catalog_rtree')?.sql)).toBe(CATALOG_RTREE_DDL);
    expect(oneLine(master.find((m) => m.name === 'archive_scenes_rtree')?.sql)).toBe(
      'CREATE VIRTUAL TABLE `archive_scenes_rtree` USING rtree(seq, min_lon, max_lon, min_lat, max_lat)',
    );
  });

  it("creates the catalog exactly as @eo/catalog-store's catalogDdl() does (sqlite_schema)", () => {
    const migrated = catalogSchema(service.sqlite);
    expect(migrated.length).toBeGreaterThanOrEqual(13); // 2 tables, 7 indexes, the R*Tree and its 3 shadows
    expect(migrated).toEqual(freshCatalogSchema());
  });

  it('is idempotent: reopening applies nothing twice, and every migration file is journalled', () => {
    service.close();
    const again = openDatabase(file);
    const ledger = migrationLedger(again.sqlite, MIGRATIONS_FOLDER);
    again.close();
    expect(ledger.journalled).toEqual(ledger.files);
    expect(ledger.applied).toBe(ledger.files.length);
  });

  it('backfills catalog_footprints (the statement of @eo/catalog-store) as the writers store them', () => {
    const replay = replayFootprintBackfill({
      folder: MIGRATIONS_FOLDER,
      tag: '0002_catalog_footprints',
      dir: fs.mkdtempSync(path.join(dir, 'backfill-')),
      open: openDatabase,
    });
    expect(replay.existedBefore).toBe(false);
    expect(replay.backfillVerbatim).toBe(true);
    expect(replay.written.length).toBe(4); // every record but the one without geometry
    expect(replay.backfilled).toEqual(replay.written);
  });
});
