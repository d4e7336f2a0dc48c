/**
 * Every export format from one call: text formats as UTF-8 text, the others (KMZ, zipped
 * Shapefile, GeoPackage) as bytes. Pure: the caller writes the result where it wants.
 */
import { EXPORT_FORMATS, type ExportFormat } from '@eo/domain';
import type { ExportFeature } from './write/feature';
import { toGeoJson } from './write/geojson';
import { toGeoPackage } from './write/geopackage';
import { toKml } from './write/kml';
import { toKmz } from './write/kmz';
import { shapefileNotes, toShapefileZip } from './write/shapefile';
import { featuresToCsv } from './write/table';

// The list is the domain's (the desktop's contract names the same formats).
export { EXPORT_FORMATS, type ExportFormat };
/** Formats that are bytes, not text (never written to a terminal). */
export const BINARY_EXPORT_FORMATS: readonly ExportFormat[] = ['kmz', 'shp', 'gpkg'];

export function isExportFormat(v: string | undefined): v is ExportFormat {
  return (EXPORT_FORMATS as readonly (string | undefined)[]).includes(v);
}

export interface ExportOptions {
  /** CSV: a WKT column of each geometry (default: yes; `false` writes the attributes alone). */
  readonly wkt?: boolean | undefined;
  /** Layer / table name inside a Shapefile zip or GeoPackage. */
  readonly layer?: string | undefined;
}

export function exportFeatures(
  features: readonly ExportFeature[],
  format: ExportFormat,
  options: ExportOptions = {},
): string | Uint8Array {
  switch (format) {
    case 'geojson':
      return toGeoJson(features);
    case 'kml':
      return toKml(features, { styleByStatus: true });
    case 'csv':
      return featuresToCsv(features, options.wkt !== false);
    case 'kmz':
      return toKmz(features);
    case 'shp':
      return toShapefileZip(features, { name: options.layer ?? 'features' });
    case 'gpkg':
      return toGeoPackage(features, options.layer ?? 'features');
  }
}

/**
 * What an export in `format` could not keep as the records have it, in words for the user (a
 * Shapefile's cut field names, its left-out long texts); empty for the lossless formats.
 */
export function exportNotes(
  features: readonly ExportFeature[],
  format: ExportFormat,
  options: ExportOptions = {},
): string[] {
  return format === 'shp' ? shapefileNotes(features, { name: options.layer ?? 'features' }) : [];
}
