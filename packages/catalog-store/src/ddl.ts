/**
 * The catalog's CREATE statements, made from its drizzle definitions (`table.ts`,
 * `footprints.ts`, `compact/shared-texts.ts`) and the R*Tree statement (`rtree.ts`): the one
 * source of the catalog's layout, in either of its two forms (`layout.ts`: the service's JSON
 * records, the mirror's compact ones with their shared texts). They are spelled as drizzle-kit writes migrations (backquoted names, a `unique()`
 * column as its own `<table>_<column>_unique` index), so the service's and the mirror's
 * migrations create exactly these (their migration tests compare `sqlite_schema` with a
 * database made from this list), and a test database made from it is the one they ship.
 */
import { is, SQL } from 'drizzle-orm';
import { getTableConfig, SQLiteSyncDialect, type SQLiteTable } from 'drizzle-orm/sqlite-core';
import { catalogShared } from './compact/shared-texts';
import { catalogUnpacked } from './compact/unpacked';
import { catalogFootprints } from './footprints';
import { JSON_LAYOUT, type CatalogLayout } from './layout';
import { CATALOG_RTREE_DDL } from './rtree';
import { catalogRecords, compactCatalogRecords } from './table';

/** Every statement that creates the catalog in `layout`: tables, their indexes, the R*Tree. */
export function catalogDdl(layout: CatalogLayout = JSON_LAYOUT): string[] {
  if (layout === JSON_LAYOUT)
    return [...tableDdl(catalogRecords), ...tableDdl(catalogFootprints), CATALOG_RTREE_DDL];
  return [
    ...tableDdl(compactCatalogRecords),
    ...tableDdl(catalogFootprints),
    ...tableDdl(catalogShared),
    ...tableDdl(catalogUnpacked),
    CATALOG_RTREE_DDL,
  ];
}

const quoted = (name: string) => `\`${name}\``;

function tableDdl(table: SQLiteTable): string[] {
  const cfg = getTableConfig(table);
  const dialect = new SQLiteSyncDialect();
  const columns = cfg.columns.map((c) => {
    const autoIncrement = (c as { autoIncrement?: boolean }).autoIncrement === true;
    return [
      `${quoted(c.name)} ${c.getSQLType()}`,
      c.primary ? `PRIMARY KEY${autoIncrement ? ' AUTOINCREMENT' : ''}` : '',
      c.notNull ? 'NOT NULL' : '',
    ]
      .filter(Boolean)
      .join(' ');
  });
  const uniques = cfg.columns
    .filter((c) => c.isUnique)
    .map((c) => {
      const name = c.uniqueName ?? `${cfg.name}_${c.name}_unique`;
      return `CREATE UNIQUE INDEX ${quoted(name)} ON ${quoted(cfg.name)} (${quoted(c.name)})`;
    });
  const indexes = cfg.indexes.map((i) => {
    const on = i.config.columns
      .map((c) => (is(c, SQL) ? dialect.sqlToQuery(c, 'indexes').sql : quoted(c.name)))
      .join(',');
    const unique = i.config.unique ? 'UNIQUE ' : '';
    const where = i.config.where
      ? ` WHERE ${dialect.sqlToQuery(i.config.where, 'indexes').sql}`
      : '';
    return `CREATE ${unique}INDEX ${quoted(i.config.name)} ON ${quoted(cfg.name)} (${on})${where}`;
  });
  return [`CREATE TABLE ${quoted(cfg.name)} (${columns.join(', ')})`, ...uniques, ...indexes];
}
