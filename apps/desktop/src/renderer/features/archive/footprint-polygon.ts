/**
 * An archive scene's outline (flat [lon, lat, ...], not closed: `ArchiveSceneRow.footprint`,
 * kept too by a basket's archive entry) as the closed GeoJSON Polygon maps and orders take.
 */
import type { Polygon } from '@eo/domain';

export function polygonOfRing(ring: readonly number[]): Polygon {
  const points: [number, number][] = [];
  for (let i = 0; i + 1 < ring.length; i += 2) points.push([ring[i]!, ring[i + 1]!]);
  points.push(points[0]!);
  return { type: 'Polygon', coordinates: [points] };
}
