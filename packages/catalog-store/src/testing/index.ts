/** Test helpers for packages that own a SQLite schema (`@eo/catalog-store/testing`). */
export { schemaDrift, schemaTables } from './schema-drift';
export { catalogSchema, freshCatalogSchema, type SchemaEntry } from './catalog-schema';
export { migrationLedger, type MigrationLedger } from './migration-ledger';
export {
  sqlLiterals,
  sqlNameCheck,
  unpreparable,
  type SqlLiteral,
  type SqlLiterals,
} from './sql-literals';
export {
  migrationsBefore,
  replayFootprintBackfill,
  type FootprintBackfill,
} from './footprint-backfill';
