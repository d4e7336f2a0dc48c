/**
 * A temp SQLite file holding the catalog table, created from its drizzle definition and the
 * R*Tree statement: what the service's and the mirror's migrations create (their migration
 * tests hold both to this same definition), without depending on either.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { is, SQL } from 'drizzle-orm';
import { getTableConfig, SQLiteSyncDialect, type SQLiteTable } from 'drizzle-orm/sqlite-core';
import { catalogShared } from '../compact/shared-texts';
import { catalogFootprints } from '../footprints';
import { JSON_LAYOUT, type CatalogLayout } from '../layout';
import { CATALOG_RTREE_DDL } from '../rtree';
import { catalogRecords, compactCatalogRecords } from '../table';

/**
 * CREATE statements for `catalog_records` in `layout`, its footprints (columns, keys,
 * indexes), R*Tree and shared texts.
 */
export function catalogDdl(layout: CatalogLayout = JSON_LAYOUT): string[] {
  return [
    ...tableDdl(layout === JSON_LAYOUT ? catalogRecords : compactCatalogRecords),
    ...tableDdl(catalogFootprints),
    ...tableDdl(catalogShared),
    CATALOG_RTREE_DDL,
  ];
}

function tableDdl(table: SQLiteTable): string[] {
  const cfg = getTableConfig(table);
  const dialect = new SQLiteSyncDialect();
  const columns = cfg.columns.map((c) => {
    const autoIncrement = (c as { autoIncrement?: boolean }).autoIncrement === true;
    return [
      `"${c.name}" ${c.getSQLType()}`,
      c.primary ? `PRIMARY KEY${autoIncrement ? ' AUTOINCREMENT' : ''}` : '',
      c.notNull ? 'NOT NULL' : '',
      c.isUnique ? 'UNIQUE' : '',
    ]
      .filter(Boolean)
      .join(' ');
  });
  const indexes = cfg.indexes.map((i) => {
    const on = i.config.columns
      .map((c) => (is(c, SQL) ? dialect.sqlToQuery(c, 'indexes').sql : `"${c.name}"`))
      .join(', ');
    return `CREATE ${i.config.unique ? 'UNIQUE ' : ''}INDEX "${i.config.name}" ON "${cfg.name}" (${on})`;
  });
  return [`CREATE TABLE "${cfg.name}" (${columns.join(', ')})`, ...indexes];
}

export interface TempCatalog {
  readonly sqlite: Database.Database;
  close(): void;
}

/** A fresh database file in its own temp folder; `close` removes both. */
export function tempCatalog(prefix: string, layout: CatalogLayout = JSON_LAYOUT): TempCatalog {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `eo-catalog-store-${prefix}-`));
  const sqlite = new Database(path.join(dir, 'catalog.db'));
  for (const statement of catalogDdl(layout)) sqlite.exec(statement);
  return {
    sqlite,
    close() {
      sqlite.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
