import type { Polygon } from '@eo/domain';
import { describe, expect, it } from 'vitest';
import { areaSqM, areasIntersect, centroidOf, clipAoiToFootprint } from '../geo';
import { box, boxAreaSqM } from './fixtures';

const rel = (a: number, b: number) => Math.abs(a - b) / b;

describe('areaSqM', () => {
  it('matches the exact spherical area of lon/lat boxes at any latitude', () => {
    for (const [w, s, e, n] of [
      [0, 0, 1, 1],
      [10, 45, 10.1, 45.1],
      [-70, -60, -69, -59.5],
      [100, 80, 120, 85],
    ] as const) {
      expect(rel(areaSqM(box(w, s, e, n)), boxAreaSqM(w, s, e, n))).toBeLessThan(1e-9);
    }
  });
  it('does not depend on winding, and subtracts holes', () => {
    const cw: Polygon = {
      type: 'Polygon',
      coordinates: [[...box(0, 0, 1, 1).coordinates[0]!].reverse()],
    };
    expect(rel(areaSqM(cw), boxAreaSqM(0, 0, 1, 1))).toBeLessThan(1e-9);
    const holed: Polygon = {
      type: 'Polygon',
      coordinates: [box(0, 0, 1, 1).coordinates[0]!, box(0.25, 0.25, 0.75, 0.75).coordinates[0]!],
    };
    const expected = boxAreaSqM(0, 0, 1, 1) - boxAreaSqM(0.25, 0.25, 0.75, 0.75);
    expect(rel(areaSqM(holed), expected)).toBeLessThan(1e-9);
  });
  it('is 0 for lines and points', () => {
    expect(areaSqM({ type: 'Point', coordinates: [1, 2] })).toBe(0);
    expect(
      areaSqM({
        type: 'LineString',
        coordinates: [
          [0, 0],
          [1, 1],
        ],
      }),
    ).toBe(0);
  });
});

describe('centroidOf', () => {
  it('is the area-weighted centre, holes counted out', () => {
    expect(centroidOf(box(2, 4, 4, 8))).toEqual([3, 6]);
    // An L shape: a 2x1 bar and a 1x1 square on top of its left end.
    const l: Polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [2, 0],
          [2, 1],
          [1, 1],
          [1, 2],
          [0, 2],
          [0, 0],
        ],
      ],
    };
    const [x, y] = centroidOf(l);
    expect(x).toBeCloseTo(5 / 6, 12);
    expect(y).toBeCloseTo(5 / 6, 12);
    const holed: Polygon = {
      type: 'Polygon',
      coordinates: [box(0, 0, 4, 4).coordinates[0]!, box(2, 0, 4, 4).coordinates[0]!],
    };
    expect(centroidOf(holed)[0]).toBeCloseTo(1, 12);
  });
});

describe('clipAoiToFootprint', () => {
  it('keeps the part of a concave AOI inside a convex footprint', () => {
    // A U shape (three 1x1 cells: left column 0..1, bottom, right column 2..3) cut by the top half.
    const u: Polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [3, 0],
          [3, 3],
          [2, 3],
          [2, 1],
          [1, 1],
          [1, 3],
          [0, 3],
          [0, 0],
        ],
      ],
    };
    const cut = clipAoiToFootprint(u, box(-1, 1, 4, 4))!;
    // Two 1x2 columns: their area, whatever degenerate seam Sutherland–Hodgman leaves between them.
    expect(rel(areaSqM(cut), boxAreaSqM(0, 1, 1, 3) + boxAreaSqM(2, 1, 3, 3))).toBeLessThan(1e-3);
  });
  it('cuts holes too, and drops parts outside', () => {
    const holed: Polygon = {
      type: 'Polygon',
      coordinates: [box(0, 0, 4, 4).coordinates[0]!, box(1, 1, 3, 3).coordinates[0]!],
    };
    const cut = clipAoiToFootprint(holed, box(2, -1, 5, 5))!;
    const expected = boxAreaSqM(2, 0, 4, 4) - boxAreaSqM(2, 1, 3, 3);
    expect(rel(areaSqM(cut), expected)).toBeLessThan(1e-9);
    const multi = clipAoiToFootprint(
      {
        type: 'MultiPolygon',
        coordinates: [box(0, 0, 1, 1).coordinates, box(5, 5, 6, 6).coordinates],
      },
      box(-1, -1, 2, 2),
    );
    expect(multi).toEqual({ type: 'Polygon', coordinates: box(0, 0, 1, 1).coordinates });
  });
  it('is null when they do not overlap or only touch', () => {
    expect(clipAoiToFootprint(box(0, 0, 1, 1), box(2, 2, 3, 3))).toBeNull();
    expect(clipAoiToFootprint(box(0, 0, 1, 1), box(1, 0, 2, 1))).toBeNull();
    expect(clipAoiToFootprint(box(0, 0, 1, 1), null)).toBeNull();
  });
  it('falls back to the whole AOI for a non-convex footprint that intersects it', () => {
    const notch: Polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [4, 0],
          [4, 4],
          [2, 2],
          [0, 4],
          [0, 0],
        ],
      ],
    };
    const aoi = box(1, 1, 1.5, 1.5);
    expect(clipAoiToFootprint(aoi, notch)).toBe(aoi);
    expect(clipAoiToFootprint(box(1.8, 3.5, 2.2, 3.9), notch)).toBeNull();
    expect(areasIntersect(box(-1, 1, 5, 1.5), notch)).toBe(true);
  });
});
