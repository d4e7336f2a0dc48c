/**
 * RFC 7946 FeatureCollection text of export features (UTF-8 as JSON writes it: names kept). A
 * feature whose `id` attribute is a string or a number carries it as its top-level `id` too
 * (RFC 7946 3.2), so readers that key features by id (QGIS, GDAL, web maps) have it.
 */
import type { ExportFeature } from './feature';

export function toGeoJson(features: readonly ExportFeature[]): string {
  const collection = {
    type: 'FeatureCollection',
    features: features.map((f) => {
      const id = f.properties.id;
      return {
        type: 'Feature',
        ...(typeof id === 'string' || typeof id === 'number' ? { id } : {}),
        ...(f.bbox ? { bbox: f.bbox } : {}),
        geometry: f.geometry,
        properties: f.properties,
      };
    }),
  };
  return `${JSON.stringify(collection)}\n`;
}
