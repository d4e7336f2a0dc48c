/**
 * @eo/catalog-store: catalog records in SQLite, shared by the reference service and the
 * offline mirror so both answer catalog search with the same SQL over the same layout.
 */
export { catalogRecords } from './table';
export type { SqlRow } from './sql-row';
export { CATALOG_RTREE_DDL } from './rtree';
export { catalogDdl } from './ddl';
export {
  catalogFootprints,
  CATALOG_FOOTPRINTS_BACKFILL,
  footprintRing,
  footprintPoints,
  installFootprintFunction,
  FOOTPRINT_TOLERANCE_DEG,
} from './footprints';
export {
  makeCatalogInserter,
  makeCatalogUpserter,
  makeCatalogDeleter,
  CatalogRecordIdError,
  type CatalogLinks,
  type CatalogReading,
  type CatalogRecordOut,
} from './writes';
export {
  makeCatalogSearch,
  installTimeFunction,
  type CatalogSearch,
  type CatalogSearchPage,
} from './search';
export { compileCatalogSql, catalogSearchStatements, type CompiledSql } from './search-sql';
export {
  installSpatialFunctions,
  withQueryGeometry,
  rtreeBoxCondition,
  boxParams,
} from './spatial-sql';
