import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Geometry, Polygon } from '../../geometry';
import { bboxPolygons } from '../bbox';
import { geometryIntersects } from '../intersects';

const rect = (w: number, s: number, e: number, n: number): Polygon => ({
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
});

// Coordinates on a coarse grid of quarter degrees plus arbitrary doubles, so equal coordinates
// (touching edges and corners) come up often.
const lon = fc.oneof(
  fc.integer({ min: -720, max: 720 }).map((k) => k / 4),
  fc.double({ min: -180, max: 180, noNaN: true }),
);
const lat = fc.oneof(
  fc.integer({ min: -360, max: 360 }).map((k) => k / 4),
  fc.double({ min: -90, max: 90, noNaN: true }),
);
const latPair = fc.tuple(lat, lat).map(([a, b]) => (a <= b ? [a, b] : [b, a]) as [number, number]);
const lonPair = fc.tuple(lon, lon).map(([a, b]) => (a <= b ? [a, b] : [b, a]) as [number, number]);

/** Closed interval overlap, per axis; a crossing box (w > e) is [w, 180] or [-180, e]. */
function expected(box: [number, number, number, number], r: [number, number, number, number]) {
  const [w, s, e, n] = box;
  const [x1, y1, x2, y2] = r;
  const yOverlap = y1 <= n && s <= y2;
  const xOverlap = w <= e ? x1 <= e && w <= x2 : x2 >= w || x1 <= e;
  return xOverlap && yOverlap;
}

describe('geometryIntersects(rectangle, bbox) equals the interval-overlap formula', () => {
  it('for random boxes (antimeridian-crossing included) and random rectangles', () => {
    fc.assert(
      fc.property(lon, lon, latPair, lonPair, latPair, (w, e, [s, n], [x1, x2], [y1, y2]) => {
        const box = [w, s, e, n] as [number, number, number, number];
        const query: Geometry = { type: 'GeometryCollection', geometries: bboxPolygons(box) };
        const footprint = rect(x1, y1, x2, y2);
        const want = expected(box, [x1, y1, x2, y2]);
        expect(geometryIntersects(footprint, query)).toBe(want);
        expect(geometryIntersects(query, footprint)).toBe(want);
      }),
      { numRuns: 20_000, seed: 42 },
    );
  });
});
