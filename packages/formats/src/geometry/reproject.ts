/**
 * Positions from a file's CRS (the WKT of a .prj or a GeoPackage's srs definition) to WGS 84
 * longitude/latitude, with proj4. A CRS that already is geographic WGS 84 is left alone.
 */
import proj4 from 'proj4';
import type { Geometry, Position } from '@eo/domain';

export type Project = (p: Position) => Position;

/** True for WGS 84 longitude/latitude WKT (ESRI's GCS_WGS_1984, OGC's "WGS 84", EPSG:4326). */
export function isWgs84(wkt: string): boolean {
  const t = wkt.trim();
  return /^(GEOGCS|GEOGCRS)\[/i.test(t) && /WGS[ _]?(19)?84/i.test(t) && !/PROJCS|PROJCRS/i.test(t);
}

/** A projection to WGS 84 from the CRS's WKT; throws when proj4 cannot read it. */
export function toWgs84(wkt: string): Project {
  const converter = proj4(wkt, 'WGS84');
  return (p) => {
    const [x, y] = converter.forward([p[0]!, p[1]!]);
    return [x!, y!];
  };
}

/** The CRS's name from its WKT (for the preview): PROJCS["WGS 84 / UTM zone 33N", ...]. */
export function crsName(wkt: string): string {
  return /^[A-Z]+\["([^"]*)"/i.exec(wkt.trim())?.[1] ?? wkt.slice(0, 60);
}

/** The first position outside longitude -180..180 / latitude -90..90, or null when all fit. */
export function firstOutsideLonLat(g: Geometry): Position | null {
  let outside: Position | null = null;
  mapPositions(g, (p) => {
    if (!outside && !(Math.abs(p[0]!) <= 180 && Math.abs(p[1]!) <= 90)) outside = p;
    return p;
  });
  return outside;
}

export function mapPositions(g: Geometry, f: Project): Geometry {
  const ring = (ps: Position[]) => ps.map(f);
  switch (g.type) {
    case 'Point':
      return { type: 'Point', coordinates: f(g.coordinates) };
    case 'MultiPoint':
    case 'LineString':
      return { type: g.type, coordinates: ring(g.coordinates) } as Geometry;
    case 'MultiLineString':
    case 'Polygon':
      return { type: g.type, coordinates: g.coordinates.map(ring) } as Geometry;
    case 'MultiPolygon':
      return { type: 'MultiPolygon', coordinates: g.coordinates.map((p) => p.map(ring)) };
    case 'GeometryCollection':
      return {
        type: 'GeometryCollection',
        geometries: g.geometries.map((m) => mapPositions(m, f)),
      };
  }
}
