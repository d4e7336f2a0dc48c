/**
 * `@eo/formats/geopackage`: the GeoPackage writer and its layer schemas alone, for a caller that
 * writes GeoPackages of its own (field packages) without loading the readers and the other
 * writers (XML, projections, zip) on its first screen.
 */
export {
  gpkgGeometry,
  makeGeoPackageWriter,
  type FeatureLayerOptions,
  type GeoPackageWriter,
  type MediaRelation,
  type MediaRow,
  type WrittenLayer,
} from './write/geopackage';
export { createLayerSchema, type AttributeColumn, type LayerSchema } from './write/gpkg-schema';
export type { ExportFeature } from './write/feature';
