/**
 * Area of a footprint on the sphere (authalic radius), in km², by the spherical-excess
 * line integral over each ring (exterior minus holes). Good to ~0.3% against the ellipsoid,
 * plenty for the `area` of demo catalog records.
 */
import type { Geometry } from '@eo/domain';

const R_KM = 6371.0072;
const DEG = Math.PI / 180;

function ringArea(ring: readonly number[][]): number {
  let sum = 0;
  for (let i = 0; i + 1 < ring.length; i++) {
    const [x1, y1] = ring[i] as [number, number];
    const [x2, y2] = ring[i + 1] as [number, number];
    let dl = x2 - x1;
    dl -= 360 * Math.round(dl / 360);
    sum += dl * DEG * (2 + Math.sin(y1 * DEG) + Math.sin(y2 * DEG));
  }
  return Math.abs((sum * R_KM * R_KM) / 2);
}

export function footprintAreaKm2(g: Geometry): number {
  const polygons =
    g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
  let total = 0;
  for (const p of polygons) {
    p.forEach((ring, i) => (total += (i === 0 ? 1 : -1) * ringArea(ring)));
  }
  return total;
}
