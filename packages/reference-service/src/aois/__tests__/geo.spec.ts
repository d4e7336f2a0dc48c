import { geodesicArea as areaSqM, type Polygon } from '@eo/domain';
import { describe, expect, it } from 'vitest';
import { clipAoiToFootprint } from '../geo';
import { box, boxAreaSqM } from './fixtures';

const rel = (a: number, b: number) => Math.abs(a - b) / b;

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
  });
});
