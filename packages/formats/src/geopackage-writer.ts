/**
 * The GeoPackage writer alone (`@eo/formats/geopackage-writer`): what a program that writes
 * GeoPackages but reads no field files needs (the mirror's field packages), without the readers
 * and other writers the package's root brings (the desktop's first screen loads this, not them).
 */
export {
  makeGeoPackageWriter,
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
