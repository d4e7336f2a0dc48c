/** Files a field team brings to the app, written for the journeys (Node side, no DOM). */
import { exportFeatures } from '@eo/formats';
import fs from 'node:fs';
import path from 'node:path';

/** `dir/name`: a GeoJSON FeatureCollection of one feature; returns its path. */
export function writeGeoJson(
  dir: string,
  name: string,
  geometry: unknown,
  properties: Record<string, unknown> = {},
): string {
  const file = path.join(dir, name);
  fs.writeFileSync(
    file,
    JSON.stringify({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', properties, geometry }],
    }),
  );
  return file;
}

/** A named field: its outer ring. */
export interface Field {
  readonly name: string;
  readonly ring: number[][];
}

/**
 * `dir/name`: a KMZ as Google Earth gives it (built with @eo/formats' writer), the fields as
 * named polygons and then a well, a named point; returns its path.
 */
export function writeFieldsKmz(
  dir: string,
  name: string,
  fields: readonly Field[],
  well: { readonly name: string; readonly at: [number, number] },
): string {
  const file = path.join(dir, name);
  const bytes = exportFeatures(
    [
      ...fields.map((f) => ({
        geometry: { type: 'Polygon' as const, coordinates: [f.ring] },
        properties: { name: f.name },
      })),
      { geometry: { type: 'Point', coordinates: well.at }, properties: { name: well.name } },
    ],
    'kmz',
  );
  fs.writeFileSync(file, bytes);
  return file;
}
