/**
 * Compares a migrated SQLite database with drizzle table definitions, for the migration tests
 * of every package that owns a schema (the service, the mirror) and for this package's own
 * test table. Lives here because both schema owners depend on this package and on drizzle.
 */
import type Database from 'better-sqlite3';
import { is } from 'drizzle-orm';
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';

/** The drizzle tables among a schema module's exports. */
export function schemaTables(schema: Record<string, unknown>): SQLiteTable[] {
  return Object.values(schema).filter((v): v is SQLiteTable => is(v, SQLiteTable));
}

interface ColumnInfo {
  name: string;
  notnull: number;
  pk: number;
}

/**
 * Every way the database differs from the tables, as readable lines (empty when it matches):
 * columns, nullability, primary keys, named indexes, unique columns and foreign keys of each
 * table listed. Tables not listed are not looked at.
 */
export function schemaDrift(sqlite: Database.Database, tables: readonly SQLiteTable[]): string[] {
  const drift: string[] = [];
  const differ = (what: string, got: unknown, want: unknown) => {
    if (JSON.stringify(got) !== JSON.stringify(want))
      drift.push(
        `${what}: database has ${JSON.stringify(got)}, schema says ${JSON.stringify(want)}`,
      );
  };
  for (const t of tables) {
    const cfg = getTableConfig(t);
    const cols = sqlite.prepare(`PRAGMA table_info(${cfg.name})`).all() as ColumnInfo[];
    differ(
      `${cfg.name} columns`,
      cols.map((c) => c.name).sort(),
      cfg.columns.map((c) => c.name).sort(),
    );
    const compositeKey = cfg.primaryKeys.flatMap((k) => k.columns.map((c) => c.name));
    for (const c of cfg.columns) {
      const got = cols.find((x) => x.name === c.name);
      if (!got) continue;
      // An INTEGER PRIMARY KEY is the rowid: never NULL, whatever table_info says.
      differ(`${cfg.name}.${c.name} not null`, got.notnull === 1 || c.primary, c.notNull);
      differ(
        `${cfg.name}.${c.name} primary key`,
        got.pk > 0,
        c.primary || compositeKey.includes(c.name),
      );
    }
    const indexes = sqlite.prepare(`PRAGMA index_list(${cfg.name})`).all() as Array<{
      name: string;
      origin: string;
    }>;
    // origin 'c': created by CREATE INDEX; drizzle names a unique column's index `*_unique`.
    const created = indexes.filter((i) => i.origin === 'c').map((i) => i.name);
    differ(
      `${cfg.name} indexes`,
      created.filter((n) => !n.endsWith('_unique')).sort(),
      cfg.indexes.map((i) => i.config.name).sort(),
    );
    const uniqueColumns = indexes
      .filter((i) => i.name.endsWith('_unique') || i.origin === 'u')
      .flatMap((i) =>
        (sqlite.prepare(`PRAGMA index_info(${i.name})`).all() as Array<{ name: string }>).map(
          (c) => c.name,
        ),
      );
    differ(
      `${cfg.name} unique columns`,
      uniqueColumns.sort(),
      cfg.columns
        .filter((c) => c.isUnique)
        .map((c) => c.name)
        .sort(),
    );
    const foreignKeys = (
      sqlite.prepare(`PRAGMA foreign_key_list(${cfg.name})`).all() as Array<{
        table: string;
        from: string;
        to: string;
      }>
    ).map((fk) => `${fk.from}->${fk.table}.${fk.to}`);
    differ(
      `${cfg.name} foreign keys`,
      foreignKeys.sort(),
      cfg.foreignKeys
        .flatMap((fk) => {
          const ref = fk.reference();
          const target = getTableConfig(ref.foreignTable).name;
          return ref.columns.map((c, i) => `${c.name}->${target}.${ref.foreignColumns[i]!.name}`);
        })
        .sort(),
    );
  }
  return drift;
}
