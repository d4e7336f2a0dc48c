/**
 * Where a shape's small rings go: the centre of each polygon part, never of the shape as a
 * whole. The centre of far-apart parts (footprints in Oregon and in Sweden) lies where there is
 * nothing and read as a third place on the map.
 */
import L from 'leaflet';
import type { Geometry } from '@eo/domain';

type Ring = ReadonlyArray<readonly number[]>;

/** The centre of the bounds of each polygon part (Polygon, MultiPolygon); none for others. */
export function partCenters(geometries: readonly Geometry[]): L.LatLng[] {
  const centers: L.LatLng[] = [];
  const add = (outer: Ring | undefined): void => {
    if (!outer || outer.length === 0) return;
    const bounds = L.latLngBounds(outer.map(([lon, lat]) => L.latLng(lat!, lon!)));
    if (bounds.isValid()) centers.push(bounds.getCenter());
  };
  for (const g of geometries) {
    if (g.type === 'Polygon') add(g.coordinates[0]);
    else if (g.type === 'MultiPolygon') for (const part of g.coordinates) add(part[0]);
  }
  return centers;
}
