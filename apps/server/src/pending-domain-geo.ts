/**
 * TEMPORARY stand-ins for the domain geometry functions that branch h/search adds to
 * @eo/domain (`geometryIntersects`, `geometryBbox`, `bboxBounds`, `bboxPolygons`), so this
 * branch can run its tests before that branch lands. Delete on merging h/search and import
 * from '@eo/domain' instead.
 */
import type { Geometry, Polygon } from '@eo/domain';

type Bounds = [number, number, number, number];
type Pt = [number, number];

export function bboxPolygons(b: readonly [number, number, number, number]): Polygon[] {
  return bboxBounds(b).map(([w, s, e, n]) => ({
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
  }));
}

export function bboxBounds(b: readonly [number, number, number, number]): Bounds[] {
  const [w, s, e, n] = b;
  return w > e
    ? [
        [w, s, 180, n],
        [-180, s, e, n],
      ]
    : [[w, s, e, n]];
}

interface Prims {
  points: Pt[];
  lines: Pt[][];
  polys: Pt[][][];
}

function prims(g: Geometry, out: Prims = { points: [], lines: [], polys: [] }): Prims {
  const pt = (p: number[]): Pt => [p[0]!, p[1]!];
  switch (g.type) {
    case 'Point':
      out.points.push(pt(g.coordinates));
      break;
    case 'MultiPoint':
      g.coordinates.forEach((p) => out.points.push(pt(p)));
      break;
    case 'LineString':
      out.lines.push(g.coordinates.map(pt));
      break;
    case 'MultiLineString':
      g.coordinates.forEach((l) => out.lines.push(l.map(pt)));
      break;
    case 'Polygon':
      out.polys.push(g.coordinates.map((r) => r.map(pt)));
      break;
    case 'MultiPolygon':
      g.coordinates.forEach((p) => out.polys.push(p.map((r) => r.map(pt))));
      break;
    case 'GeometryCollection':
      g.geometries.forEach((c) => prims(c, out));
      break;
  }
  return out;
}

export function geometryBbox(g: Geometry): Bounds | null {
  const p = prims(g);
  const all = [...p.points, ...p.lines.flat(), ...p.polys.flat(2)];
  if (all.length === 0) return null;
  const xs = all.map((q) => q[0]);
  const ys = all.map((q) => q[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

const cross = (o: Pt, a: Pt, b: Pt) =>
  (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
const onSeg = (p: Pt, a: Pt, b: Pt) =>
  cross(a, b, p) === 0 &&
  Math.min(a[0], b[0]) <= p[0] &&
  p[0] <= Math.max(a[0], b[0]) &&
  Math.min(a[1], b[1]) <= p[1] &&
  p[1] <= Math.max(a[1], b[1]);
function segsMeet(a: Pt, b: Pt, c: Pt, d: Pt): boolean {
  const d1 = Math.sign(cross(c, d, a));
  const d2 = Math.sign(cross(c, d, b));
  const d3 = Math.sign(cross(a, b, c));
  const d4 = Math.sign(cross(a, b, d));
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  return onSeg(a, c, d) || onSeg(b, c, d) || onSeg(c, a, b) || onSeg(d, a, b);
}
function inRing(p: Pt, ring: Pt[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[i]!;
    const b = ring[j]!;
    if (
      a[1] > p[1] !== b[1] > p[1] &&
      p[0] < ((b[0] - a[0]) * (p[1] - a[1])) / (b[1] - a[1]) + a[0]
    )
      inside = !inside;
  }
  return inside;
}
function inPoly(p: Pt, poly: Pt[][]): boolean {
  for (const r of poly)
    for (let i = 0; i + 1 < r.length; i++) if (onSeg(p, r[i]!, r[i + 1]!)) return true;
  if (!inRing(p, poly[0]!)) return false;
  return !poly.slice(1).some((h) => inRing(p, h));
}
function segments(p: Prims): Array<[Pt, Pt]> {
  const out: Array<[Pt, Pt]> = [];
  for (const l of [...p.lines, ...p.polys.flat()])
    for (let i = 0; i + 1 < l.length; i++) out.push([l[i]!, l[i + 1]!]);
  return out;
}
function anyInside(a: Prims, b: Prims): boolean {
  const verts = [...a.points, ...a.lines.map((l) => l[0]!), ...a.polys.map((p) => p[0]![0]!)];
  return verts.some(
    (v) =>
      b.polys.some((poly) => inPoly(v, poly)) ||
      segments(b).some(([s, e]) => onSeg(v, s, e)) ||
      b.points.some((q) => q[0] === v[0] && q[1] === v[1]),
  );
}

export function geometryIntersects(x: Geometry, y: Geometry): boolean {
  const a = prims(x);
  const b = prims(y);
  const sa = segments(a);
  const sb = segments(b);
  for (const [p, q] of sa) for (const [r, s] of sb) if (segsMeet(p, q, r, s)) return true;
  return anyInside(a, b) || anyInside(b, a);
}
