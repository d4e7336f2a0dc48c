/**
 * @eo/catalog-store: catalog records in SQLite, shared by the reference service and the
 * offline mirror so both answer catalog search with the same SQL over the same layout.
 */
export { catalogRecords, compactCatalogRecords } from './table';
export { COMPACT_LAYOUT, JSON_LAYOUT, RECORD_CONTEXT_COLUMNS, type CatalogLayout } from './layout';
export {
  catalogShared,
  forgetCatalogShared,
  sharedTexts,
  type SharedTexts,
} from './compact/shared-texts';
export { decodeGeometry, encodeGeometry, geometryJson } from './compact/geometry-blob';
export {
  packRecord,
  storeRecordText,
  storedText,
  unpackRecord,
  type RecordContext,
} from './compact/record-blob';
export { catalogUnpacked } from './compact/unpacked';
export { makeCatalogPacker, type PackingProgress } from './compact/packing';
export {
  installRecordFunction,
  makeCatalogRecordReader,
  packedRecordJson,
  recordContext,
  type CatalogRecordReader,
  type PackedRow,
} from './records';
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
  makeCatalogMover,
  makeCatalogRowPreparer,
  makeCatalogRowWriter,
  CatalogRecordIdError,
  MAX_UNPACKED,
  type CatalogPacking,
  type CatalogLinks,
  type CatalogReading,
  type CatalogRecordOut,
  type PreparedCatalogRow,
} from './writes';
export {
  makeCatalogSearch,
  makeCatalogListSearch,
  installSearchFunctions,
  installTimeFunction,
  type CatalogListPage,
  type CatalogListRow,
  type CatalogListSearch,
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
