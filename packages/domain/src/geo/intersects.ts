/**
 * Planar intersection of GeoJSON geometries on lon/lat, with closed-set semantics:
 *
 * - every geometry includes its boundary, so touching edges, a shared vertex, or a point on an
 *   edge all intersect;
 * - a polygon's holes are open: a geometry strictly inside a hole does not intersect the
 *   polygon, but one touching the hole's ring does;
 * - containment either way intersects;
 * - a multi-geometry or collection is the union of its parts (it intersects if any part does);
 * - an empty geometry intersects nothing.
 *
 * How: (1) every isolated point of either side is tested for closed containment in the other;
 * (2) every edge (line segment or ring edge) of one side is tested against every edge of the
 * other; (3) if no edges meet, each line chain and each polygon lies wholly inside or wholly
 * outside each polygon of the other side, so one vertex of it decides. Orientation tests are
 * exact (`./orient.ts`); a ring's interior follows the even-odd rule (which only matters for
 * self-intersecting rings).
 */
import type { Geometry } from '../geometry';
import { orient2d } from './orient';
import {
  geometryPrimitives,
  type Chain,
  type GeometryPrimitives,
  type PolygonPrimitive,
} from './primitives';

/** True when the two geometries share at least one point (boundaries included). */
export function geometryIntersects(a: Geometry, b: Geometry): boolean {
  return primitivesIntersect(geometryPrimitives(a), geometryPrimitives(b));
}

/** `geometryIntersects` on decomposed geometries (decompose a fixed query geometry once). */
export function primitivesIntersect(a: GeometryPrimitives, b: GeometryPrimitives): boolean {
  const ab = a.bounds;
  const bb = b.bounds;
  if (ab === null || bb === null) return false;
  if (ab[0] > bb[2] || bb[0] > ab[2] || ab[1] > bb[3] || bb[1] > ab[3]) return false;
  // (1) isolated points
  if (anyPointIn(a.points, b) || anyPointIn(b.points, a)) return true;
  // (2) edges meeting
  if (anyEdgesMeet(a, b)) return true;
  // (3) containment without boundary contact: one vertex per chain decides
  return someChainInside(a, b) || someChainInside(b, a);
}

/** Closed containment of a point in a geometry's primitives. */
export function primitivesContainPoint(g: GeometryPrimitives, x: number, y: number): boolean {
  const pts = g.points;
  for (let i = 0; i < pts.length; i += 2) {
    if (pts[i] === x && pts[i + 1] === y) return true;
  }
  for (const line of g.lines) {
    if (x < line.west || x > line.east || y < line.south || y > line.north) continue;
    const c = line.coords;
    for (let i = 0; i + 3 < c.length; i += 2) {
      if (pointOnSegment(x, y, c[i]!, c[i + 1]!, c[i + 2]!, c[i + 3]!)) return true;
    }
  }
  return pointInPolygons(g.polygons, x, y);
}

/** Closed containment of a point in any of the polygons (hole rings count as boundary). */
export function pointInPolygons(
  polygons: readonly PolygonPrimitive[],
  x: number,
  y: number,
): boolean {
  for (const p of polygons) {
    if (pointInPolygon(p, x, y)) return true;
  }
  return false;
}

/** Closed containment of a point in one polygon with holes. */
export function pointInPolygon(polygon: PolygonPrimitive, x: number, y: number): boolean {
  const rings = polygon.rings;
  const outer = pointInRing(rings[0]!, x, y);
  if (outer <= 0) return outer === 0;
  for (let i = 1; i < rings.length; i++) {
    const r = pointInRing(rings[i]!, x, y);
    if (r === 0) return true; // on the hole's ring: part of the polygon
    if (r > 0) return false; // strictly inside the hole
  }
  return true;
}

/**
 * 1 strictly inside the closed ring, 0 on it, -1 outside (even-odd rule, exact).
 * Ray cast towards +x with the half-open rule on y, so a vertex on the ray counts once.
 */
export function pointInRing(ring: Chain, x: number, y: number): -1 | 0 | 1 {
  if (x < ring.west || x > ring.east || y < ring.south || y > ring.north) return -1;
  const c = ring.coords;
  let inside = false;
  for (let i = 0; i + 3 < c.length; i += 2) {
    const ax = c[i]!;
    const ay = c[i + 1]!;
    const bx = c[i + 2]!;
    const by = c[i + 3]!;
    const straddles = ay > y !== by > y;
    const inBox =
      x >= (ax < bx ? ax : bx) &&
      x <= (ax < bx ? bx : ax) &&
      y >= (ay < by ? ay : by) &&
      y <= (ay < by ? by : ay);
    if (!straddles && !inBox) continue;
    const o = orient2d(ax, ay, bx, by, x, y);
    if (o === 0 && inBox) return 0;
    // The edge crosses the ray right of the point when the point is left of the upward edge.
    if (straddles && (by > ay ? o > 0 : o < 0)) inside = !inside;
  }
  return inside ? 1 : -1;
}

/** Closed segment a-b contains point p (exact). */
export function pointOnSegment(
  px: number,
  py: number,
  ax: number,
  ay: number,
  bx: number,
  by: number,
): boolean {
  if (px < (ax < bx ? ax : bx) || px > (ax < bx ? bx : ax)) return false;
  if (py < (ay < by ? ay : by) || py > (ay < by ? by : ay)) return false;
  return orient2d(ax, ay, bx, by, px, py) === 0;
}

/**
 * Closed segments a-b and c-d share a point (exact): crossing, touching at an endpoint or an
 * interior point, or overlapping collinearly. Degenerate segments (a = b) work as points.
 */
export function segmentsIntersect(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  dx: number,
  dy: number,
): boolean {
  // Bounds overlap: necessary, and for collinear segments also sufficient.
  if ((ax < bx ? bx : ax) < (cx < dx ? cx : dx) || (cx < dx ? dx : cx) < (ax < bx ? ax : bx)) {
    return false;
  }
  if ((ay < by ? by : ay) < (cy < dy ? cy : dy) || (cy < dy ? dy : cy) < (ay < by ? ay : by)) {
    return false;
  }
  const o1 = Math.sign(orient2d(ax, ay, bx, by, cx, cy));
  const o2 = Math.sign(orient2d(ax, ay, bx, by, dx, dy));
  if (o1 !== 0 && o1 === o2) return false; // c and d strictly on the same side of line ab
  const o3 = Math.sign(orient2d(cx, cy, dx, dy, ax, ay));
  const o4 = Math.sign(orient2d(cx, cy, dx, dy, bx, by));
  if (o3 !== 0 && o3 === o4) return false;
  // Either a proper crossing, an endpoint on the other segment, or all four collinear with
  // overlapping bounds (checked above).
  return true;
}

function anyPointIn(points: readonly number[], g: GeometryPrimitives): boolean {
  for (let i = 0; i < points.length; i += 2) {
    if (primitivesContainPoint(g, points[i]!, points[i + 1]!)) return true;
  }
  return false;
}

function anyEdgesMeet(a: GeometryPrimitives, b: GeometryPrimitives): boolean {
  for (const ca of a.lines) if (chainMeetsAny(ca, b)) return true;
  for (const pa of a.polygons) for (const ca of pa.rings) if (chainMeetsAny(ca, b)) return true;
  return false;
}

function chainMeetsAny(ca: Chain, b: GeometryPrimitives): boolean {
  for (const cb of b.lines) if (chainsMeet(ca, cb)) return true;
  for (const pb of b.polygons) for (const cb of pb.rings) if (chainsMeet(ca, cb)) return true;
  return false;
}

function chainsMeet(p: Chain, q: Chain): boolean {
  if (p.west > q.east || q.west > p.east || p.south > q.north || q.south > p.north) return false;
  const a = p.coords;
  const b = q.coords;
  for (let i = 0; i + 3 < a.length; i += 2) {
    const ax = a[i]!;
    const ay = a[i + 1]!;
    const bx = a[i + 2]!;
    const by = a[i + 3]!;
    // Skip segments of p outside q's bounds before the pairwise loop.
    if ((ax < bx ? bx : ax) < q.west || (ax < bx ? ax : bx) > q.east) continue;
    if ((ay < by ? by : ay) < q.south || (ay < by ? ay : by) > q.north) continue;
    for (let j = 0; j + 3 < b.length; j += 2) {
      if (segmentsIntersect(ax, ay, bx, by, b[j]!, b[j + 1]!, b[j + 2]!, b[j + 3]!)) return true;
    }
  }
  return false;
}

/** Some line or polygon of `inner` lies inside a polygon of `outer` (given no edges meet). */
function someChainInside(inner: GeometryPrimitives, outer: GeometryPrimitives): boolean {
  if (outer.polygons.length === 0) return false;
  for (const l of inner.lines) {
    if (pointInPolygons(outer.polygons, l.coords[0]!, l.coords[1]!)) return true;
  }
  for (const p of inner.polygons) {
    const ring = p.rings[0]!;
    if (pointInPolygons(outer.polygons, ring.coords[0]!, ring.coords[1]!)) return true;
  }
  return false;
}
