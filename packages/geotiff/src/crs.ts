/**
 * The CRS math the rasters need: longitude/latitude to and from a raster's CRS (WGS 84 / UTM
 * north and south, and WGS 84 lon/lat itself), and areas (GeoJSON on lon/lat) into a
 * raster's CRS. The projection itself is `@eo/domain`'s (one source of truth with the service).
 */
import { fromUtm, toUtm, utmOfEpsg, type Geometry, type Position } from '@eo/domain';
import { fail } from './errors';

const WGS84 = 4326;

export const isSupportedCrs = (epsg: number): boolean => epsg === WGS84 || utmOfEpsg(epsg) !== null;

function zoneOf(epsg: number) {
  const z = utmOfEpsg(epsg);
  if (!z && epsg !== WGS84)
    fail(
      'unsupported',
      `EPSG:${epsg}: this codec projects WGS 84 lon/lat and UTM (326zz, 327zz) only`,
    );
  return z;
}

/** Map coordinates in `epsg` of (lon, lat). */
export function lonLatToMap(epsg: number, lon: number, lat: number): [number, number] {
  const z = zoneOf(epsg);
  return z ? toUtm(lon, lat, z.zone, z.south) : [lon, lat];
}

/** (lon, lat) of map coordinates in `epsg`. */
export function mapToLonLat(epsg: number, x: number, y: number): [number, number] {
  const z = zoneOf(epsg);
  return z ? fromUtm(x, y, z.zone, z.south) : [x, y];
}

/** Longest step, in degrees, of a projected edge (lines on lon/lat bend a little in UTM). */
const DENSIFY_DEG = 0.005;

function ring(ps: readonly Position[], f: (p: Position) => Position): Position[] {
  const out: Position[] = [];
  for (let i = 0; i < ps.length; i++) {
    const p = ps[i]!;
    const q = ps[i + 1];
    out.push(f(p));
    if (!q) continue;
    const steps = Math.ceil(
      Math.max(Math.abs(q[0]! - p[0]!), Math.abs(q[1]! - p[1]!)) / DENSIFY_DEG,
    );
    for (let s = 1; s < Math.min(steps, 1000); s++) {
      const t = s / steps;
      out.push(f([p[0]! + (q[0]! - p[0]!) * t, p[1]! + (q[1]! - p[1]!) * t]));
    }
  }
  return out;
}

/** A GeoJSON geometry on lon/lat, projected (and densified) into `epsg`. */
export function geometryToMap(g: Geometry, epsg: number): Geometry {
  const f = (p: Position): Position => lonLatToMap(epsg, p[0]!, p[1]!);
  switch (g.type) {
    case 'Point':
      return { type: 'Point', coordinates: f(g.coordinates) };
    case 'MultiPoint':
      return { type: 'MultiPoint', coordinates: g.coordinates.map(f) };
    case 'LineString':
      return { type: 'LineString', coordinates: ring(g.coordinates, f) };
    case 'MultiLineString':
      return { type: 'MultiLineString', coordinates: g.coordinates.map((l) => ring(l, f)) };
    case 'Polygon':
      return { type: 'Polygon', coordinates: g.coordinates.map((r) => ring(r, f)) };
    case 'MultiPolygon':
      return {
        type: 'MultiPolygon',
        coordinates: g.coordinates.map((p) => p.map((r) => ring(r, f))),
      };
    case 'GeometryCollection':
      return {
        type: 'GeometryCollection',
        geometries: g.geometries.map((m) => geometryToMap(m, epsg)),
      };
  }
}
