/** RFC 7946 FeatureCollection text of export features (UTF-8 as JSON writes it: names kept). */
import type { ExportFeature } from './feature';

export function toGeoJson(features: readonly ExportFeature[]): string {
  const collection = {
    type: 'FeatureCollection',
    features: features.map((f) => ({
      type: 'Feature',
      ...(f.bbox ? { bbox: f.bbox } : {}),
      geometry: f.geometry,
      properties: f.properties,
    })),
  };
  return `${JSON.stringify(collection)}\n`;
}
