/** Test helpers for packages that test with field files (`@eo/formats/testing`; tests only). */
export { square } from './square';
export { gpkgProblems, ogrFields, ogrLayers, ogrValues, type OgrLayer } from './gdal';
export {
  bigCellGeoPackage,
  contentsViewGeoPackage,
  generatedColumnGeoPackage,
  hugeRowsViewGeoPackage,
  kmzBomb,
  recursiveViewGeoPackage,
  writeBigCsv,
  writeBigGeoJson,
  writeHostileGeoJson,
} from './hostile';
