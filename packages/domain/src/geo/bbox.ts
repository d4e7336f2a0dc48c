/**
 * Boxes: a search `bbox` as polygons (split at the antimeridian), and the planar bounds of a
 * geometry (what the SQL R*Tree prefilters index).
 */
import type { Geometry, Polygon, Position } from '../geometry';
import type { Bounds } from './primitives';

/**
 * A search box `[w, s, e, n]` as rectangle polygons (counter-clockwise, RFC 7946):
 * one when w <= e, two when the box crosses the antimeridian (w > e): `[w..180]` and `[-180..e]`.
 * Degenerate boxes (w = e or s = n) give degenerate rectangles, which still intersect what
 * touches them.
 */
export function bboxPolygons(bbox: readonly [number, number, number, number]): Polygon[] {
  const [w, s, e, n] = bbox;
  return w > e ? [rectangle(w, s, 180, n), rectangle(-180, s, e, n)] : [rectangle(w, s, e, n)];
}

/** The same split, as bounds (for prefilters). */
export function bboxBounds(bbox: readonly [number, number, number, number]): Bounds[] {
  const [w, s, e, n] = bbox;
  return w > e
    ? [
        [w, s, 180, n],
        [-180, s, e, n],
      ]
    : [[w, s, e, n]];
}

function rectangle(w: number, s: number, e: number, n: number): Polygon {
  return {
    type: 'Polygon',
    coordinates: [
      [
        [w, s],
        [e, s],
        [e, n],
        [w, n],
        [w, s],
      ],
    ],
  };
}

/**
 * Planar `[min lon, min lat, max lon, max lat]` of the geometry, or null when it has no
 * position. It skips exactly what `geometryPrimitives` skips (positions with fewer than two
 * numbers, polygons without an exterior ring position), so it equals the primitives' bounds:
 * whatever intersects the geometry lies within it, which makes it a sound R*Tree key.
 * No antimeridian handling: a footprint split at 180 into a MultiPolygon gets
 * `[-180, .., 180, ..]`, a superset that is fine for a prefilter.
 */
export function geometryBbox(geometry: Geometry): Bounds | null {
  const acc: Bounds = [Infinity, Infinity, -Infinity, -Infinity];
  extend(geometry, acc);
  return acc[0] <= acc[2] ? acc : null;
}

/** Closed bounds overlap (touching counts). */
export function boundsIntersect(a: Readonly<Bounds>, b: Readonly<Bounds>): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

/** `inner` lies within `outer` (closed). */
export function boundsContain(outer: Readonly<Bounds>, inner: Readonly<Bounds>): boolean {
  return (
    outer[0] <= inner[0] && inner[2] <= outer[2] && outer[1] <= inner[1] && inner[3] <= outer[3]
  );
}

function extend(g: Geometry, acc: Bounds): void {
  switch (g.type) {
    case 'Point':
      extendPosition(g.coordinates, acc);
      return;
    case 'MultiPoint':
    case 'LineString':
      extendPositions(g.coordinates, acc);
      return;
    case 'MultiLineString':
      for (const l of g.coordinates) extendPositions(l, acc);
      return;
    case 'Polygon':
      extendPolygon(g.coordinates, acc);
      return;
    case 'MultiPolygon':
      for (const p of g.coordinates) extendPolygon(p, acc);
      return;
    case 'GeometryCollection':
      for (const child of g.geometries) extend(child, acc);
      return;
  }
}

function extendPolygon(rings: readonly Position[][], acc: Bounds): void {
  const outer = rings[0];
  if (outer === undefined || !hasPosition(outer)) return;
  for (const r of rings) extendPositions(r, acc);
}

function hasPosition(ps: readonly Position[]): boolean {
  for (const p of ps) if (p[0] !== undefined && p[1] !== undefined) return true;
  return false;
}

function extendPositions(ps: readonly Position[], acc: Bounds): void {
  for (const p of ps) extendPosition(p, acc);
}

function extendPosition(p: Position, acc: Bounds): void {
  const x = p[0];
  const y = p[1];
  if (x === undefined || y === undefined) return;
  if (x < acc[0]) acc[0] = x;
  if (y < acc[1]) acc[1] = y;
  if (x > acc[2]) acc[2] = x;
  if (y > acc[3]) acc[3] = y;
}
