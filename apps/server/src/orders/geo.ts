/**
 * The geometry the order flow needs: geodesic area, and a footprint-covers-geometry test.
 *
 * Area is exact on a sphere of the WGS84 authalic radius (spherical excess per edge), which is
 * within 0.5% of the ellipsoidal area. Containment and overlap are planar in lon/lat (fine for
 * scene-sized shapes; shapes crossing the antimeridian are not supported). When the domain's
 * `geodesicArea` / `geometryIntersects` (branch h/search) land, these become thin wrappers.
 */
import type { FeatureCollectionInput, Geometry, Position } from '@eo/domain';

/** Radius of the sphere with the WGS84 ellipsoid's surface area, metres. */
const AUTHALIC_RADIUS_M = 6_371_007.181;
const RAD = Math.PI / 180;

type Ring = Position[];
type PolygonCoords = Ring[];

/** Signed spherical area of a closed ring, m² (sign depends on winding). */
function ringArea(ring: Ring): number {
  let sum = 0;
  for (let i = 0; i + 1 < ring.length; i++) {
    const [lon1, lat1] = ring[i] as [number, number];
    const [lon2, lat2] = ring[i + 1] as [number, number];
    let dLon = (lon2 - lon1) * RAD;
    if (dLon > Math.PI) dLon -= 2 * Math.PI;
    if (dLon < -Math.PI) dLon += 2 * Math.PI;
    const t1 = Math.tan((lat1 * RAD) / 2);
    const t2 = Math.tan((lat2 * RAD) / 2);
    sum += 2 * Math.atan2(Math.tan(dLon / 2) * (t1 + t2), 1 + t1 * t2);
  }
  return sum * AUTHALIC_RADIUS_M * AUTHALIC_RADIUS_M;
}

function polygonArea(rings: PolygonCoords): number {
  const [outer, ...holes] = rings;
  if (!outer) return 0;
  return Math.max(
    0,
    Math.abs(ringArea(outer)) - holes.reduce((s, h) => s + Math.abs(ringArea(h)), 0),
  );
}

/** Every polygon of a geometry (points and lines have none). */
export function polygonsOf(g: Geometry): PolygonCoords[] {
  switch (g.type) {
    case 'Polygon':
      return [g.coordinates];
    case 'MultiPolygon':
      return g.coordinates;
    case 'GeometryCollection':
      return g.geometries.flatMap(polygonsOf);
    default:
      return [];
  }
}

/** Geodesic area of a geometry in m² (0 for points and lines). */
export function geodesicAreaM2(g: Geometry): number {
  return polygonsOf(g).reduce((s, p) => s + polygonArea(p), 0);
}

/** The geometries of an order item's FeatureCollection. */
export function featureGeometries(fc: FeatureCollectionInput): Geometry[] {
  return fc.features.map((f) => f.geometry);
}

/** Area of a FeatureCollection in km²: the sum over its features (overlaps count twice). */
export function featureCollectionAreaKm2(fc: FeatureCollectionInput): number {
  return featureGeometries(fc).reduce((s, g) => s + geodesicAreaM2(g), 0) / 1e6;
}

/** Every vertex of a geometry. */
export function verticesOf(g: Geometry): Position[] {
  switch (g.type) {
    case 'Point':
      return [g.coordinates];
    case 'MultiPoint':
    case 'LineString':
      return g.coordinates;
    case 'MultiLineString':
    case 'Polygon':
      return g.coordinates.flat();
    case 'MultiPolygon':
      return g.coordinates.flat(2);
    case 'GeometryCollection':
      return g.geometries.flatMap(verticesOf);
  }
}

function pointInRing([x, y]: Position, ring: Ring): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i] as [number, number];
    const [xj, yj] = ring[j] as [number, number];
    if (yi > y! !== yj > y! && x! < ((xj - xi) * (y! - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Whether a point lies on a segment (so shared edges count as covered). */
function onSegment([x, y]: Position, [ax, ay]: Position, [bx, by]: Position): boolean {
  const cross = (bx! - ax!) * (y! - ay!) - (by! - ay!) * (x! - ax!);
  if (Math.abs(cross) > 1e-12) return false;
  return (
    Math.min(ax!, bx!) - 1e-12 <= x! &&
    x! <= Math.max(ax!, bx!) + 1e-12 &&
    Math.min(ay!, by!) - 1e-12 <= y! &&
    y! <= Math.max(ay!, by!) + 1e-12
  );
}

function onBoundary(p: Position, rings: PolygonCoords): boolean {
  return rings.some((r) => r.some((a, i) => i + 1 < r.length && onSegment(p, a, r[i + 1]!)));
}

export function pointInPolygon(p: Position, rings: PolygonCoords): boolean {
  const [outer, ...holes] = rings;
  if (!outer) return false;
  if (onBoundary(p, rings)) return true;
  return pointInRing(p, outer) && !holes.some((h) => pointInRing(p, h));
}

export function pointInGeometry(p: Position, g: Geometry): boolean {
  return polygonsOf(g).some((poly) => pointInPolygon(p, poly));
}

function segmentsCross(a: Position, b: Position, c: Position, d: Position): boolean {
  const orient = (p: Position, q: Position, r: Position) =>
    Math.sign((q[0]! - p[0]!) * (r[1]! - p[1]!) - (q[1]! - p[1]!) * (r[0]! - p[0]!));
  const o1 = orient(a, b, c);
  const o2 = orient(a, b, d);
  const o3 = orient(c, d, a);
  const o4 = orient(c, d, b);
  return o1 !== o2 && o3 !== o4;
}

function edgesOf(g: Geometry): Array<[Position, Position]> {
  const lines: Position[][] = [];
  const walk = (geom: Geometry) => {
    switch (geom.type) {
      case 'LineString':
        lines.push(geom.coordinates);
        break;
      case 'MultiLineString':
      case 'Polygon':
        lines.push(...geom.coordinates);
        break;
      case 'MultiPolygon':
        geom.coordinates.forEach((p) => lines.push(...p));
        break;
      case 'GeometryCollection':
        geom.geometries.forEach(walk);
        break;
      default:
        break;
    }
  };
  walk(g);
  return lines.flatMap((l) => l.slice(1).map((p, i) => [l[i]!, p] as [Position, Position]));
}

/** Whether an area footprint and any geometry share at least a point. */
export function footprintOverlaps(footprint: Geometry, g: Geometry): boolean {
  if (verticesOf(g).some((p) => pointInGeometry(p, footprint))) return true;
  if (verticesOf(footprint).some((p) => pointInGeometry(p, g))) return true;
  const fe = edgesOf(footprint);
  return edgesOf(g).some(([a, b]) => fe.some(([c, d]) => segmentsCross(a, b, c, d)));
}

/**
 * Whether the union of the footprints covers the geometry, judged on its vertices: exact
 * for convex footprints (scene quadrilaterals) and the single-scene case.
 */
export function footprintsCover(footprints: readonly Geometry[], g: Geometry): boolean {
  return verticesOf(g).every((p) => footprints.some((f) => pointInGeometry(p, f)));
}
