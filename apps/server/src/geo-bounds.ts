/** [west, south, east, north] of a geometry's coordinates (planar), for R*Tree entries. */
import type { Geometry, Position } from '@eo/domain';

export function geometryBounds(g: Geometry): [number, number, number, number] {
  const b: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  const visit = (p: Position) => {
    const [x, y] = p as [number, number];
    if (x < b[0]) b[0] = x;
    if (y < b[1]) b[1] = y;
    if (x > b[2]) b[2] = x;
    if (y > b[3]) b[3] = y;
  };
  const walk = (geom: Geometry) => {
    switch (geom.type) {
      case 'Point':
        visit(geom.coordinates);
        break;
      case 'MultiPoint':
      case 'LineString':
        geom.coordinates.forEach(visit);
        break;
      case 'MultiLineString':
      case 'Polygon':
        geom.coordinates.forEach((l) => l.forEach(visit));
        break;
      case 'MultiPolygon':
        geom.coordinates.forEach((p) => p.forEach((l) => l.forEach(visit)));
        break;
      case 'GeometryCollection':
        geom.geometries.forEach(walk);
        break;
    }
  };
  walk(g);
  return b;
}
