/** Export features as CSV: one row per feature, the union of attributes, WKT last if asked. */
import { toCsv } from './csv';
import { attributeNames, type ExportFeature } from './feature';
import { toWkt } from './wkt';

export function featuresToCsv(features: readonly ExportFeature[], wkt: boolean): string {
  const names = attributeNames(features);
  const headers = wkt ? [...names, 'wkt'] : names;
  const rows = features.map((f) => {
    const row = names.map((n) => f.properties[n]);
    return wkt ? [...row, f.geometry ? toWkt(f.geometry) : null] : row;
  });
  return toCsv(headers, rows);
}
