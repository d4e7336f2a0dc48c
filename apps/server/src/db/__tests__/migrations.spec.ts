/**
 * Replays every migration under apps/server/drizzle on an empty database and compares the
 * result with the drizzle schema, so a schema edit without its migration (or the reverse) fails.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CATALOG_RTREE_DDL } from '@eo/catalog-store';
import { is } from 'drizzle-orm';
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, openDatabase } from '../client';
import * as schema from '../schema';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-server-migrations-'));
const file = path.join(dir, 'service.db');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const tables = Object.values(schema as Record<string, unknown>).filter((v): v is SQLiteTable =>
  is(v, SQLiteTable),
);

interface MasterRow {
  type: string;
  name: string;
  sql: string | null;
}

describe('server migrations', () => {
  const service = openDatabase(file);
  afterAll(() => service.close());
  const master = service.sqlite
    .prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
    .all() as MasterRow[];
  const oneLine = (sql: string | null | undefined) => sql?.replace(/\s+/g, ' ');

  it('creates every table of the schema with its columns, nullability and primary key', () => {
    expect(tables.length).toBeGreaterThanOrEqual(15);
    for (const t of tables) {
      const cfg = getTableConfig(t);
      const cols = service.sqlite.prepare(`PRAGMA table_info(${cfg.name})`).all() as Array<{
        name: string;
        notnull: number;
        pk: number;
      }>;
      expect(cols.map((c) => c.name).sort(), cfg.name).toEqual(
        cfg.columns.map((c) => c.name).sort(),
      );
      const compositeKey = cfg.primaryKeys.flatMap((k) => k.columns.map((c) => c.name));
      for (const c of cfg.columns) {
        const got = cols.find((x) => x.name === c.name)!;
        expect(got.notnull === 1 || c.primary, `${cfg.name}.${c.name} not null`).toBe(c.notNull);
        expect(got.pk > 0, `${cfg.name}.${c.name} primary key`).toBe(
          c.primary || compositeKey.includes(c.name),
        );
      }
    }
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

  it('creates every index of the schema, and no other', () => {
    const expected = tables.flatMap((t) => getTableConfig(t).indexes.map((i) => i.config.name));
    const created = master
      .filter((m) => m.type === 'index' && m.sql !== null)
      .map((m) => m.name)
      .filter((n) => !n.endsWith('_unique'));
    expect(created.sort()).toEqual(expected.sort());
  });

  it('makes every column the schema calls unique unique, and no other', () => {
    const expected = tables.flatMap((t) => {
      const cfg = getTableConfig(t);
      return cfg.columns.filter((c) => c.isUnique).map((c) => `${cfg.name}.${c.name}`);
    });
    const created = master
      .filter((m) => m.type === 'index' && m.name.endsWith('_unique'))
      .flatMap((m) => {
        const table = /ON `([^`]+)`/.exec(m.sql ?? '')?.[1];
        const cols = service.sqlite.prepare(`PRAGMA index_info(${m.name})`).all() as Array<{
          name: string;
        }>;
        return cols.map((c) => `${table}.${c.name}`);
      });
    expect(created.sort()).toEqual(expected.sort());
  });

  it('creates every foreign key of the schema', () => {
    for (const t of tables) {
      const cfg = getTableConfig(t);
      const expected = cfg.foreignKeys.flatMap((fk) => {
        const ref = fk.reference();
        return ref.columns.map(
          (c, i) =>
            `${c.name}->${getTableConfig(ref.foreignTable).name}.${ref.foreignColumns[i]!.name}`,
        );
      });
      const created = (
        service.sqlite.prepare(`PRAGMA foreign_key_list(${cfg.name})`).all() as Array<{
          table: string;
          from: string;
          to: string;
        }>
      ).map((fk) => `${fk.from}->${fk.table}.${fk.to}`);
      expect(created.sort(), cfg.name).toEqual(expected.sort());
    }
  });

  it('creates the catalog R*Tree exactly as the catalog store defines it, and the archive one', () => {
    expect(oneLine(master.find((m) => m.name === 'catalog_rtree')?.sql)).toBe(CATALOG_RTREE_DDL);
    expect(oneLine(master.find((m) => m.name === 'archive_scenes_rtree')?.sql)).toBe(
      'CREATE VIRTUAL TABLE `archive_scenes_rtree` USING rtree(seq, min_lon, max_lon, min_lat, max_lat)',
    );
  });

  it('is idempotent: reopening applies nothing twice, and every migration file is journalled', () => {
    service.close();
    const again = openDatabase(file);
    const applied = again.sqlite
      .prepare('SELECT count(*) AS n FROM __drizzle_migrations')
      .get() as {
      n: number;
    };
    again.close();
    const files = fs.readdirSync(MIGRATIONS_FOLDER).filter((f) => f.endsWith('.sql'));
    const journal = JSON.parse(
      fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'),
    ) as { entries: Array<{ tag: string }> };
    expect(journal.entries.map((e) => `${e.tag}.sql`)).toEqual(files.sort());
    expect(applied.n).toBe(files.length);
  });
});
