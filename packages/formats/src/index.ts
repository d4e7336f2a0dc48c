/**
 * @eo/formats: field file formats in and out, pure (bytes in, bytes out; no files, no outbox).
 * Imports: `importFile` (KML, KMZ, GPX, zipped Shapefile, GeoPackage, GeoJSON, CSV) to a
 * preview of features checked as areas. Exports: `exportFeatures` (GeoJSON, CSV, KML, KMZ,
 * zipped Shapefile, GeoPackage).
 */
export { FormatError } from './errors';
export { IMPORT_LIMITS, type ImportLimits } from './limits';
export {
  IMPORT_FORMATS,
  type ImportFormat,
  type ImportPreview,
  type PreviewFeature,
  type RawFeature,
} from './types';
export { detectFormat, importFile, type ImportOptions } from './import';
export {
  IMPORT_WORKER_LIMITS,
  importFileInWorker,
  type ImportSource,
  type ImportWorkerLimits,
} from './worker/import-in-worker';
export { checkArea, mergeAreas, type AreaResult } from './geometry/area';
export { readWkt } from './geometry/wkt-read';
export {
  MAX_TYPED_AREA_CHARS,
  readTypedArea,
  TYPED_AREA_KINDS,
  type TypedArea,
  type TypedAreaKind,
} from './geometry/typed-area';
export { readWkb, writeWkb } from './geometry/wkb';
export {
  BINARY_EXPORT_FORMATS,
  EXPORT_FORMATS,
  exportFeatures,
  exportNotes,
  isExportFormat,
  type ExportFormat,
  type ExportOptions,
} from './export';
export {
  attributeNames,
  isScalar,
  scalarFields,
  type ExportFeature,
  type Scalar,
} from './write/feature';
export { csvField, toCsv } from './write/csv';
export { toGeoJson } from './write/geojson';
export { kmlGeometry, toKml, xmlText } from './write/kml';
export { toKmz } from './write/kmz';
export { toWkt } from './write/wkt';
export { featuresToCsv } from './write/table';
export { shapefileNotes, toShapefileZip, WGS84_PRJ, type ShapefileCrs } from './write/shapefile';
export {
  gpkgGeometry,
  makeGeoPackageWriter,
  toGeoPackage,
  type FeatureLayerOptions,
  type GeoPackageWriter,
  type MediaRelation,
  type MediaRow,
  type WrittenLayer,
} from './write/geopackage';
export {
  columnType,
  createLayerSchema,
  schemaOf,
  type AttributeColumn,
  type ColumnType,
  type LayerSchema,
} from './write/gpkg-schema';
