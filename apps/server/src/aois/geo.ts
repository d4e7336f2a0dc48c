/**
 * Geometry for AOIs and their assets: geodesic area, centroid, and the footprint ∩ AOI cut.
 *
 * Area is geodesic (spherical excess on the WGS84 equatorial-radius sphere, the formula of
 * Chamberlain & Duquette). The centroid is the area-weighted centroid in lon/lat. The cut
 * is exact (Sutherland–Hodgman, planar in lon/lat) when the scene footprint is a convex
 * polygon without holes, which archive footprints are; for any other footprint the asset
 * keeps the whole AOI geometry if the two intersect. Geometries crossing the antimeridian
 * are not supported by the cut (they are treated in plain lon/lat).
 */
import type { Geometry, MultiPolygon, Polygon, Position } from '@eo/domain';

const EARTH_RADIUS_M = 6_378_137;
const rad = (deg: number) => (deg * Math.PI) / 180;

type Ring = Position[];
export type Area = Polygon | MultiPolygon;

/** The rings of a ring list without the closing repeat of the first position. */
function open(ring: Ring): Ring {
  if (ring.length > 1) {
    const a = ring[0]!;
    const b = ring[ring.length - 1]!;
    if (a[0] === b[0] && a[1] === b[1]) return ring.slice(0, -1);
  }
  return ring;
}

function close(ring: Ring): Ring {
  return ring.length > 0 ? [...ring, ring[0]!] : ring;
}

function polygonsOf(g: Geometry): Position[][][] {
  if (g.type === 'Polygon') return [g.coordinates];
  if (g.type === 'MultiPolygon') return g.coordinates;
  if (g.type === 'GeometryCollection') return g.geometries.flatMap(polygonsOf);
  return [];
}

/** Unsigned geodesic area of one ring, m². */
function ringAreaSqM(ring: Ring): number {
  const r = open(ring);
  const n = r.length;
  if (n < 3) return 0;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const prev = r[(i + n - 1) % n]!;
    const cur = r[i]!;
    const next = r[(i + 1) % n]!;
    sum += (rad(next[0]!) - rad(prev[0]!)) * Math.sin(rad(cur[1]!));
  }
  return Math.abs((sum * EARTH_RADIUS_M * EARTH_RADIUS_M) / 2);
}

/** Geodesic area in m² of the polygons of a geometry (holes subtracted); 0 for lines and points. */
export function areaSqM(g: Geometry): number {
  let total = 0;
  for (const [outer, ...holes] of polygonsOf(g)) {
    if (!outer) continue;
    total += ringAreaSqM(outer) - holes.reduce((s, h) => s + ringAreaSqM(h), 0);
  }
  return Math.max(0, total);
}

/** Signed planar area (lon/lat units) of a ring: > 0 counter-clockwise. */
function planarSignedArea(ring: Ring): number {
  const r = open(ring);
  let s = 0;
  for (let i = 0; i < r.length; i++) {
    const a = r[i]!;
    const b = r[(i + 1) % r.length]!;
    s += a[0]! * b[1]! - b[0]! * a[1]!;
  }
  return s / 2;
}

/** Area-weighted centroid [lon, lat] of the polygons; the mean vertex when they have no area. */
export function centroidOf(g: Geometry): [number, number] {
  let area = 0;
  let cx = 0;
  let cy = 0;
  const vertices: Position[] = [];
  for (const rings of polygonsOf(g)) {
    rings.forEach((ring, k) => {
      const r = open(ring);
      vertices.push(...r);
      // Holes count negatively whatever their winding.
      const sign = (k === 0 ? 1 : -1) * Math.sign(planarSignedArea(r) || 1);
      for (let i = 0; i < r.length; i++) {
        const a = r[i]!;
        const b = r[(i + 1) % r.length]!;
        const cross = a[0]! * b[1]! - b[0]! * a[1]!;
        area += (sign * cross) / 2;
        cx += sign * (a[0]! + b[0]!) * cross;
        cy += sign * (a[1]! + b[1]!) * cross;
      }
    });
  }
  if (Math.abs(area) > 1e-15) return [cx / (6 * area), cy / (6 * area)];
  if (vertices.length === 0) return [0, 0];
  let sx = 0;
  let sy = 0;
  for (const p of vertices) {
    sx += p[0]!;
    sy += p[1]!;
  }
  return [sx / vertices.length, sy / vertices.length];
}

const cross = (o: Position, a: Position, b: Position) =>
  (a[0]! - o[0]!) * (b[1]! - o[1]!) - (a[1]! - o[1]!) * (b[0]! - o[0]!);

/** The outer ring of a convex, hole-free polygon, counter-clockwise; undefined otherwise. */
function convexClipRing(footprint: Geometry): Ring | undefined {
  const polys = polygonsOf(footprint);
  if (polys.length !== 1 || polys[0]!.length !== 1) return undefined;
  let ring = open(polys[0]![0]!);
  if (ring.length < 3) return undefined;
  let sign = 0;
  for (let i = 0; i < ring.length; i++) {
    const c = cross(ring[i]!, ring[(i + 1) % ring.length]!, ring[(i + 2) % ring.length]!);
    if (c === 0) continue;
    if (sign === 0) sign = Math.sign(c);
    else if (Math.sign(c) !== sign) return undefined;
  }
  if (sign === 0) return undefined;
  if (sign < 0) ring = [...ring].reverse();
  return ring;
}

function lineIntersection(p: Position, q: Position, a: Position, b: Position): Position {
  const d1 = cross(a, b, p);
  const d2 = cross(a, b, q);
  const t = d1 / (d1 - d2);
  return [p[0]! + t * (q[0]! - p[0]!), p[1]! + t * (q[1]! - p[1]!)];
}

/** Sutherland–Hodgman: the part of `subject` inside the convex counter-clockwise `clip`. */
function clipRing(subject: Ring, clip: Ring): Ring {
  let output = open(subject).map((p) => [p[0]!, p[1]!]);
  for (let i = 0; i < clip.length && output.length > 0; i++) {
    const a = clip[i]!;
    const b = clip[(i + 1) % clip.length]!;
    const input = output;
    output = [];
    for (let j = 0; j < input.length; j++) {
      const cur = input[j]!;
      const prev = input[(j + input.length - 1) % input.length]!;
      const curIn = cross(a, b, cur) >= 0;
      const prevIn = cross(a, b, prev) >= 0;
      if (curIn) {
        if (!prevIn) output.push(lineIntersection(prev, cur, a, b));
        output.push(cur);
      } else if (prevIn) {
        output.push(lineIntersection(prev, cur, a, b));
      }
    }
  }
  return output;
}

const hasArea = (ring: Ring) => ring.length >= 3 && Math.abs(planarSignedArea(ring)) > 1e-14;

// --- plain intersection test (fallback for footprints the cut does not handle) --------------

function pointInRing(p: Position, ring: Ring): boolean {
  const r = open(ring);
  let inside = false;
  for (let i = 0, j = r.length - 1; i < r.length; j = i++) {
    const a = r[i]!;
    const b = r[j]!;
    if (
      a[1]! > p[1]! !== b[1]! > p[1]! &&
      p[0]! < ((b[0]! - a[0]!) * (p[1]! - a[1]!)) / (b[1]! - a[1]!) + a[0]!
    ) {
      inside = !inside;
    }
  }
  return inside;
}

function segmentsCross(p: Position, q: Position, a: Position, b: Position): boolean {
  const d1 = cross(a, b, p);
  const d2 = cross(a, b, q);
  const d3 = cross(p, q, a);
  const d4 = cross(p, q, b);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

function outerRingsIntersect(a: Ring, b: Ring): boolean {
  const ra = open(a);
  const rb = open(b);
  if (ra.some((p) => pointInRing(p, rb)) || rb.some((p) => pointInRing(p, ra))) return true;
  for (let i = 0; i < ra.length; i++) {
    for (let j = 0; j < rb.length; j++) {
      if (segmentsCross(ra[i]!, ra[(i + 1) % ra.length]!, rb[j]!, rb[(j + 1) % rb.length]!))
        return true;
    }
  }
  return false;
}

/** Whether two areal geometries overlap (outer rings; holes are ignored by this coarse test). */
export function areasIntersect(a: Geometry, b: Geometry): boolean {
  return polygonsOf(a).some((pa) =>
    polygonsOf(b).some((pb) => pa[0] && pb[0] && outerRingsIntersect(pa[0], pb[0])),
  );
}

/**
 * The part of the AOI a scene covers: footprint ∩ AOI. Exact for a convex footprint;
 * otherwise the AOI itself when they intersect. `null` when they do not intersect.
 */
export function clipAoiToFootprint(aoi: Area, footprint: Geometry | null): Area | null {
  if (!footprint) return null;
  const clip = convexClipRing(footprint);
  if (!clip) return areasIntersect(aoi, footprint) ? aoi : null;
  const polygons: Position[][][] = [];
  for (const [outer, ...holes] of polygonsOf(aoi)) {
    if (!outer) continue;
    const cutOuter = clipRing(outer, clip);
    if (!hasArea(cutOuter)) continue;
    const cutHoles = holes.map((h) => clipRing(h, clip)).filter(hasArea);
    polygons.push([close(cutOuter), ...cutHoles.map(close)]);
  }
  if (polygons.length === 0) return null;
  if (polygons.length === 1) return { type: 'Polygon', coordinates: polygons[0]! };
  return { type: 'MultiPolygon', coordinates: polygons };
}
