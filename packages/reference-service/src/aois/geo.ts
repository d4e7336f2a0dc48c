/**
 * The footprint ∩ AOI cut of scene assets. (Area and centroid come from @eo/domain:
 * `geodesicArea`, `centroid`; the intersection test is its `geometryIntersects`.)
 *
 * The cut is exact (Sutherland–Hodgman, planar in lon/lat, the same reading of edges as the
 * domain's geometry functions) when the scene footprint is a convex polygon without holes,
 * which archive footprints are; for any other footprint the asset keeps the whole AOI
 * geometry if the two intersect. Geometries crossing the antimeridian are not supported by
 * the cut (they are treated in plain lon/lat).
 */
import {
  geometryIntersects,
  type Geometry,
  type MultiPolygon,
  type Polygon,
  type Position,
} from '@eo/domain';

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

/**
 * The part of the AOI a scene covers: footprint ∩ AOI. Exact for a convex footprint;
 * otherwise the AOI itself when they intersect. `null` when they do not intersect.
 */
export function clipAoiToFootprint(aoi: Area, footprint: Geometry | null): Area | null {
  if (!footprint) return null;
  const clip = convexClipRing(footprint);
  if (!clip) return geometryIntersects(aoi, footprint) ? aoi : null;
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
