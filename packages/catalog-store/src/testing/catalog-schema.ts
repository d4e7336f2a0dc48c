/**
 * The catalog's entries in `sqlite_schema` (tables, indexes, the R*Tree and its shadow tables),
 * for the migration tests of the service and the mirror: a migrated database must hold exactly
 * what a fresh one made from `catalogDdl()` holds, statement for statement.
 */
import Database from 'better-sqlite3';
import { catalogDdl } from '../ddl';
import { JSON_LAYOUT, type CatalogLayout } from '../layout';

export interface SchemaEntry {
  readonly type: string;
  readonly name: string;
  readonly tbl_name: string;
  /** The CREATE statement as SQLite keeps it, whitespace made single spaces. */
  readonly sql: string | null;
}

const CATALOG_TABLES = ['catalog_records', 'catalog_footprints', 'catalog_rtree', 'catalog_shared'];

/** Whitespace aside (a migration file breaks lines): `( a, b )` and `(a, b)` are the same. */
function oneLine(sql: string | null): string | null {
  return sql === null
    ? null
    : sql.replace(/\s+/g, ' ').replace(/\(\s/g, '(').replace(/\s\)/g, ')').trim();
}

/** The catalog's entries of this database, sorted by name. */
export function catalogSchema(sqlite: Database.Database): SchemaEntry[] {
  const rows = sqlite
    .prepare('SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name')
    .all() as SchemaEntry[];
  return rows
    .filter((r) => CATALOG_TABLES.some((t) => r.tbl_name === t || r.tbl_name.startsWith(`${t}_`)))
    .filter((r) => r.tbl_name !== 'catalog_records' || !r.name.startsWith('sqlite_autoindex'))
    .map((r) => ({ ...r, sql: oneLine(r.sql) }));
}

/** The same entries of a fresh in-memory database made from `catalogDdl(layout)` alone. */
export function freshCatalogSchema(layout: CatalogLayout = JSON_LAYOUT): SchemaEntry[] {
  const sqlite = new Database(':memory:');
  try {
    for (const statement of catalogDdl(layout)) sqlite.exec(statement);
    return catalogSchema(sqlite);
  } finally {
    sqlite.close();
  }
}
