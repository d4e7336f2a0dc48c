/**
 * OGC WKT of a GeoJSON geometry (longitude latitude order, as GeoJSON has it). Two dimensions:
 * a third coordinate is dropped, so every geometry reads back as the same 2D type.
 */
import type { Geometry, Position } from '@eo/domain';

const pos = (p: Position): string => `${p[0]} ${p[1]}`;
const list = (ps: readonly Position[]): string => `(${ps.map(pos).join(', ')})`;
const rings = (rs: readonly Position[][]): string => `(${rs.map(list).join(', ')})`;

function body(tag: string, parts: readonly unknown[], text: string): string {
  return parts.length === 0 ? `${tag} EMPTY` : `${tag} ${text}`;
}

export function toWkt(g: Geometry): string {
  switch (g.type) {
    case 'Point':
      return g.coordinates.length < 2 ? 'POINT EMPTY' : `POINT (${pos(g.coordinates)})`;
    case 'MultiPoint':
      return body('MULTIPOINT', g.coordinates, list(g.coordinates));
    case 'LineString':
      return body('LINESTRING', g.coordinates, list(g.coordinates));
    case 'MultiLineString':
      return body('MULTILINESTRING', g.coordinates, rings(g.coordinates));
    case 'Polygon':
      return body('POLYGON', g.coordinates, rings(g.coordinates));
    case 'MultiPolygon':
      return body('MULTIPOLYGON', g.coordinates, `(${g.coordinates.map(rings).join(', ')})`);
    case 'GeometryCollection':
      return body('GEOMETRYCOLLECTION', g.geometries, `(${g.geometries.map(toWkt).join(', ')})`);
  }
}
