/**
 * Area and centroid of a geometry: what the server reports as an AOI's `area_in_sq_m` and
 * `centroid`, and what order pricing multiplies.
 *
 * Area model: a sphere with the authalic radius of WGS84 (6 371 007.2 m, the radius of the
 * sphere with the ellipsoid's surface area), and edges that are straight lines in lon/lat, the
 * same reading of a polygon as `geometryIntersects` uses. On that sphere the area is exact:
 * Green's theorem turns it into a sum over edges of the integral of sin(lat) d(lon), which has
 * a closed form for a straight lon/lat edge. So a cell bounded by meridians and parallels gets
 * R^2 * dLon * (sin(north) - sin(south)): 12 363.7 km^2 for 1 x 1 degree at the equator, where
 * the WGS84 ellipsoid gives 12 308.5 km^2 (0.45 % less), and 6 088.4 km^2 at 60..61 degrees
 * north, where the ellipsoid gives 6 123.1 km^2 (0.57 % more). Not the ellipsoid, on purpose:
 * the closed form is short and easy to reproduce elsewhere (SQL functions, other clients).
 * For polygons a few kilometres across, straight lon/lat edges and great-circle edges give the
 * same area to far below these differences.
 *
 * Centroid: planar, in lon/lat degrees. Polygonal parts weighted by their planar area (holes
 * subtracted); when a geometry has no polygonal area (points, lines, degenerate polygons) the
 * mean of its positions (a ring's closing position is not counted twice).
 */
import type { Geometry } from '../geometry';
import { geometryPrimitives, type Chain } from './primitives';

/** Radius of the sphere with the WGS84 ellipsoid's surface area, in metres. */
export const AUTHALIC_RADIUS_M = 6_371_007.2;

const RAD = Math.PI / 180;

/**
 * Area in square metres on the authalic sphere: polygons minus their holes, summed over the
 * parts of a multi-geometry or collection (overlapping parts count twice); 0 for points and
 * lines. Each polygon counts at least 0 even if its holes (invalidly) exceed its exterior.
 */
export function geodesicArea(geometry: Geometry): number {
  let total = 0;
  for (const p of geometryPrimitives(geometry).polygons) {
    let area = ringArea(p.rings[0]!);
    for (let i = 1; i < p.rings.length; i++) area -= ringArea(p.rings[i]!);
    if (area > 0) total += area;
  }
  return total;
}

/** Unsigned spherical area of the region a closed ring bounds, in square metres. */
function ringArea(ring: Chain): number {
  const c = ring.coords;
  let sum = 0;
  for (let i = 0; i + 3 < c.length; i += 2) {
    const dLon = (c[i + 2]! - c[i]!) * RAD;
    if (dLon === 0) continue;
    const lat1 = c[i + 1]! * RAD;
    const lat2 = c[i + 3]! * RAD;
    // Integral of sin(lat) d(lon) along a straight lon/lat edge:
    // dLon * (cos lat1 - cos lat2) / (lat2 - lat1), written without cancellation.
    const half = (lat2 - lat1) / 2;
    const sinc = half === 0 ? 1 : Math.sin(half) / half;
    sum += dLon * Math.sin((lat1 + lat2) / 2) * sinc;
  }
  return Math.abs(sum) * AUTHALIC_RADIUS_M * AUTHALIC_RADIUS_M;
}

/**
 * `[lon, lat]` centroid (see the module comment), or null for a geometry without positions.
 */
export function centroid(geometry: Geometry): [number, number] | null {
  const prims = geometryPrimitives(geometry);
  let area = 0;
  let mx = 0;
  let my = 0;
  for (const p of prims.polygons) {
    for (let i = 0; i < p.rings.length; i++) {
      const r = ringMoments(p.rings[i]!);
      const sign = i === 0 ? 1 : -1;
      area += sign * r.area;
      mx += sign * r.area * r.x;
      my += sign * r.area * r.y;
    }
  }
  if (area > 0) return [mx / area, my / area];

  let n = 0;
  let sx = 0;
  let sy = 0;
  const add = (coords: readonly number[], end: number) => {
    for (let i = 0; i < end; i += 2) {
      sx += coords[i]!;
      sy += coords[i + 1]!;
      n++;
    }
  };
  add(prims.points, prims.points.length);
  for (const l of prims.lines) add(l.coords, l.coords.length);
  for (const p of prims.polygons) {
    for (const r of p.rings) add(r.coords, Math.max(2, r.coords.length - 2));
  }
  return n === 0 ? null : [sx / n, sy / n];
}

/** Unsigned planar area of a closed ring and its centroid (shoelace, relative to vertex 0). */
function ringMoments(ring: Chain): { area: number; x: number; y: number } {
  const c = ring.coords;
  const x0 = c[0]!;
  const y0 = c[1]!;
  let a2 = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 2; i + 3 < c.length; i += 2) {
    const xi = c[i]! - x0;
    const yi = c[i + 1]! - y0;
    const xj = c[i + 2]! - x0;
    const yj = c[i + 3]! - y0;
    const cross = xi * yj - xj * yi;
    a2 += cross;
    cx += (xi + xj) * cross;
    cy += (yi + yj) * cross;
  }
  if (a2 === 0) return { area: 0, x: x0, y: y0 };
  return { area: Math.abs(a2) / 2, x: x0 + cx / (3 * a2), y: y0 + cy / (3 * a2) };
}
