/** KMZ: the KML (styled by status) zipped as doc.kml, what Google Earth and QGIS open. */
import { strToU8, zipSync } from 'fflate';
import type { ExportFeature } from './feature';
import { toKml } from './kml';

export function toKmz(features: readonly ExportFeature[]): Uint8Array {
  const doc = strToU8(toKml(features, { styleByStatus: true }));
  return zipSync({ 'doc.kml': doc }, { level: 6, mtime: new Date('2000-01-01T00:00:00Z') });
}
