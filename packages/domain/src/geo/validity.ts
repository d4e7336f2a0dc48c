/**
 * Whether a polygon is a valid area (the one rule for AOI geometries and order item features,
 * `AreaGeometryInput`): every ring has at least 3 distinct positions not all on one line, no
 * ring crosses, touches or doubles back on itself, and no two rings of a polygon cross or
 * overlap along an edge (a hole may touch its outer ring at a point). Repeated consecutive
 * positions are tolerated. Exact (orient2d), in planar lon/lat like the rest of `src/geo`.
 *
 * Edges are swept in order of their low end along the axis where they overlap least (a comb of
 * long east-west teeth is swept north to south), so a ring costs O(n log n) plus the pairs whose
 * ranges overlap on that axis (bounded by the vertex cap, `LIMITS.maxGeometryVertices`).
 */
import type { Position } from '../geometry';
import { segmentsIntersect } from './intersects';
import { orient2d } from './orient';

export interface RingIssue {
  /** Index of the ring at fault in the polygon (0 = outer). */
  readonly ring: number;
  readonly message: string;
}

/** Ring positions without consecutive repeats and without the closing repeat. */
function distinct(ring: readonly Position[]): Position[] {
  const out: Position[] = [];
  for (const p of ring) {
    const last = out[out.length - 1];
    if (!last || last[0] !== p[0] || last[1] !== p[1]) out.push(p);
  }
  const first = out[0];
  const last = out[out.length - 1];
  if (out.length > 1 && first![0] === last![0] && first![1] === last![1]) out.pop();
  return out;
}

function allOnOneLine(r: readonly Position[]): boolean {
  const [a, b] = r as [Position, Position];
  return r.every((c) => orient2d(a[0]!, a[1]!, b[0]!, b[1]!, c[0]!, c[1]!) === 0);
}

interface Edge {
  readonly ring: number;
  readonly i: number;
  readonly n: number;
  readonly a: Position;
  readonly b: Position;
  /** Range on the sweep axis, then on the other one. */
  lo: number;
  hi: number;
  lo2: number;
  hi2: number;
}

const sign = (p: Position, q: Position, r: Position) =>
  Math.sign(orient2d(p[0]!, p[1]!, q[0]!, q[1]!, r[0]!, r[1]!));

/** Two edges of one ring sharing vertex s overlap when they leave s in the same direction. */
function doublesBack(s: Position, p: Position, q: Position): boolean {
  if (sign(s, p, q) !== 0) return false;
  return (p[0]! - s[0]!) * (q[0]! - s[0]!) + (p[1]! - s[1]!) * (q[1]! - s[1]!) > 0;
}

/** Edges of two rings meet in more than a touching point: they cross, or overlap along a line. */
function ringsCross(e: Edge, f: Edge): boolean {
  const [a, b, c, d] = [e.a, e.b, f.a, f.b];
  if (!segmentsIntersect(a[0]!, a[1]!, b[0]!, b[1]!, c[0]!, c[1]!, d[0]!, d[1]!)) return false;
  const o1 = sign(a, b, c);
  const o2 = sign(a, b, d);
  const o3 = sign(c, d, a);
  const o4 = sign(c, d, b);
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  if (o1 !== 0 || o2 !== 0) return false; // a touch at one point
  // Collinear: overlapping along a positive length rather than meeting at an end.
  const horizontal = Math.abs(b[0]! - a[0]!) >= Math.abs(b[1]! - a[1]!);
  const k = horizontal ? 0 : 1;
  const lo = Math.max(Math.min(a[k]!, b[k]!), Math.min(c[k]!, d[k]!));
  const hi = Math.min(Math.max(a[k]!, b[k]!), Math.max(c[k]!, d[k]!));
  return hi > lo;
}

/** The first problem of a polygon (outer ring then holes), or null when it is a valid area. */
export function polygonProblem(rings: readonly (readonly Position[])[]): RingIssue | null {
  const edges: Edge[] = [];
  for (let k = 0; k < rings.length; k++) {
    const r = distinct(rings[k]!);
    if (r.length < 3) return { ring: k, message: 'a ring needs at least 3 distinct positions' };
    if (allOnOneLine(r)) {
      return { ring: k, message: 'the ring encloses no area: its positions lie on one line' };
    }
    for (let i = 0; i < r.length; i++) {
      const a = r[i]!;
      const b = r[(i + 1) % r.length]!;
      const [minX, maxX] = a[0]! < b[0]! ? [a[0]!, b[0]!] : [b[0]!, a[0]!];
      const [minY, maxY] = a[1]! < b[1]! ? [a[1]!, b[1]!] : [b[1]!, a[1]!];
      edges.push({ ring: k, i, n: r.length, a, b, lo: minX, hi: maxX, lo2: minY, hi2: maxY });
    }
  }
  sweepAlongLeastOverlap(edges);
  edges.sort((e, f) => e.lo - f.lo);
  for (let x = 0; x < edges.length; x++) {
    const e = edges[x]!;
    for (let y = x + 1; y < edges.length && edges[y]!.lo <= e.hi; y++) {
      const f = edges[y]!;
      if (f.lo2 > e.hi2 || f.hi2 < e.lo2) continue;
      if (e.ring !== f.ring) {
        if (ringsCross(e, f)) {
          const [lo, hi] = e.ring < f.ring ? [e.ring, f.ring] : [f.ring, e.ring];
          return { ring: hi, message: `ring ${hi} crosses ring ${lo}` };
        }
        continue;
      }
      if ((e.i + 1) % e.n === f.i) {
        if (doublesBack(e.b, e.a, f.b)) return { ring: e.ring, message: DOUBLES_BACK };
        continue;
      }
      if ((f.i + 1) % f.n === e.i) {
        if (doublesBack(f.b, f.a, e.b)) return { ring: e.ring, message: DOUBLES_BACK };
        continue;
      }
      const { a, b } = e;
      const { a: c, b: d } = f;
      if (segmentsIntersect(a[0]!, a[1]!, b[0]!, b[1]!, c[0]!, c[1]!, d[0]!, d[1]!)) {
        return { ring: e.ring, message: 'the ring crosses or touches itself' };
      }
    }
  }
  return null;
}

/**
 * Makes `lo`/`hi` the axis on which edges overlap least: the one where the edges' total extent
 * is the smallest share of the whole range (edges start on x; swapped to y when y is better).
 */
function sweepAlongLeastOverlap(edges: Edge[]): void {
  let sumX = 0;
  let sumY = 0;
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (const e of edges) {
    sumX += e.hi - e.lo;
    sumY += e.hi2 - e.lo2;
    minX = Math.min(minX, e.lo);
    maxX = Math.max(maxX, e.hi);
    minY = Math.min(minY, e.lo2);
    maxY = Math.max(maxY, e.hi2);
  }
  if (sumY * (maxX - minX) >= sumX * (maxY - minY)) return;
  for (const e of edges) [e.lo, e.hi, e.lo2, e.hi2] = [e.lo2, e.hi2, e.lo, e.hi];
}

const DOUBLES_BACK = 'the ring doubles back on itself (a spike)';
