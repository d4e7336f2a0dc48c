import { describe, expect, it } from 'vitest';
import type { Polygon } from '../../geometry';
import { AUTHALIC_RADIUS_M, centroid, geodesicArea } from '../measure';

const box = (w: number, s: number, e: number, n: number): Polygon => ({
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
const KM2 = 1e6;
const RAD = Math.PI / 180;

describe('geodesicArea', () => {
  it('gives a 1 x 1 degree cell at the equator about 12 364 km^2 (within 0.5 %)', () => {
    const a = geodesicArea(box(0, 0, 1, 1)) / KM2;
    expect(Math.abs(a - 12_364) / 12_364).toBeLessThan(0.005);
  });

  it('gives a cell between parallels exactly R^2 dLon (sin n - sin s), e.g. at 60..61 N', () => {
    const a = geodesicArea(box(10, 60, 11, 61));
    const want = AUTHALIC_RADIUS_M ** 2 * RAD * (Math.sin(61 * RAD) - Math.sin(60 * RAD));
    expect(a).toBeCloseTo(want, -2); // to the square metre or so
    expect(a / KM2).toBeCloseTo(6088.4, 0);
    // Roughly cos(60.5) of the equatorial cell, and the same in the southern hemisphere.
    expect(a / geodesicArea(box(0, 0, 1, 1))).toBeCloseTo(Math.cos(60.5 * RAD), 3);
    expect(geodesicArea(box(10, -61, 11, -60))).toBeCloseTo(a, 0);
  });

  it('does not depend on ring orientation or the starting vertex', () => {
    const cw: Polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [0, 1],
          [1, 1],
          [1, 0],
          [0, 0],
        ],
      ],
    };
    const shifted: Polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [1, 1],
          [0, 1],
          [0, 0],
          [1, 0],
          [1, 1],
        ],
      ],
    };
    expect(geodesicArea(cw)).toBeCloseTo(geodesicArea(box(0, 0, 1, 1)), 0);
    expect(geodesicArea(shifted)).toBeCloseTo(geodesicArea(box(0, 0, 1, 1)), 0);
  });

  it('subtracts holes and sums the parts of a multipolygon', () => {
    const donut: Polygon = {
      type: 'Polygon',
      coordinates: [
        box(0, 0, 2, 2).coordinates[0]!,
        box(0.5, 0.5, 1.5, 1.5).coordinates[0]!.reverse(),
      ],
    };
    const expected = geodesicArea(box(0, 0, 2, 2)) - geodesicArea(box(0.5, 0.5, 1.5, 1.5));
    expect(geodesicArea(donut)).toBeCloseTo(expected, 0);
    expect(
      geodesicArea({
        type: 'MultiPolygon',
        coordinates: [donut.coordinates, box(5, 5, 6, 6).coordinates],
      }),
    ).toBeCloseTo(expected + geodesicArea(box(5, 5, 6, 6)), 0);
  });

  it('splits a triangle into two halves of equal area when it is symmetric about the equator', () => {
    // A sloped edge: the closed form for non-constant latitude is exercised.
    const tri: Polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [0, -1],
          [2, 0],
          [0, 1],
          [0, -1],
        ],
      ],
    };
    const upper: Polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [2, 0],
          [0, 1],
          [0, 0],
        ],
      ],
    };
    expect(geodesicArea(tri)).toBeCloseTo(2 * geodesicArea(upper), 0);
    // Nearly the planar triangle area (2 square degrees) at the equator.
    expect(geodesicArea(tri) / (AUTHALIC_RADIUS_M * RAD) ** 2).toBeCloseTo(2, 3);
  });

  it('integrates a long sloped edge exactly', () => {
    // Under the edge lat = 60 (1 - lon / 10) (degrees): the integral of sin(lat) d(lon) over
    // 0..10 degrees is (10 / 60) (1 - cos 60) = 1/12, so the area is R^2 / 12.
    const tri: Polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [10, 0],
          [0, 60],
          [0, 0],
        ],
      ],
    };
    expect(geodesicArea(tri) / AUTHALIC_RADIUS_M ** 2).toBeCloseTo(1 / 12, 12);
  });

  it('is 0 for points and lines', () => {
    expect(geodesicArea({ type: 'Point', coordinates: [1, 2] })).toBe(0);
    expect(
      geodesicArea({
        type: 'LineString',
        coordinates: [
          [0, 0],
          [1, 1],
        ],
      }),
    ).toBe(0);
  });
});

describe('centroid', () => {
  it('is the centre of a square', () => {
    expect(centroid(box(10, 20, 12, 24))).toEqual([11, 22]);
  });

  it('moves away from a hole', () => {
    // 0..4 square with a 0.5..1.5 hole near its south-west corner: the centroid moves north-east.
    const holed: Polygon = {
      type: 'Polygon',
      coordinates: [
        box(0, 0, 4, 4).coordinates[0]!,
        box(0.5, 0.5, 1.5, 1.5).coordinates[0]!.reverse(),
      ],
    };
    // (16 * 2 - 1 * 1) / 15 = 31 / 15 on both axes.
    const c = centroid(holed)!;
    expect(c[0]).toBeCloseTo(31 / 15, 12);
    expect(c[1]).toBeCloseTo(31 / 15, 12);
  });

  it('weights multipolygon parts by area', () => {
    const c = centroid({
      type: 'MultiPolygon',
      coordinates: [box(0, 0, 2, 2).coordinates, box(10, 0, 11, 1).coordinates],
    })!;
    // areas 4 and 1, centres (1, 1) and (10.5, 0.5)
    expect(c[0]).toBeCloseTo((4 * 1 + 10.5) / 5, 12);
    expect(c[1]).toBeCloseTo((4 * 1 + 0.5) / 5, 12);
  });

  it('is the mean of positions without area, and null without positions', () => {
    expect(
      centroid({
        type: 'MultiPoint',
        coordinates: [
          [0, 0],
          [2, 0],
          [4, 3],
        ],
      }),
    ).toEqual([2, 1]);
    expect(
      centroid({
        type: 'LineString',
        coordinates: [
          [0, 0],
          [2, 2],
        ],
      }),
    ).toEqual([1, 1]);
    // A degenerate ring: its closing position is not counted twice.
    expect(
      centroid({
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [3, 0],
            [0, 0],
          ],
        ],
      }),
    ).toEqual([1.5, 0]);
    expect(centroid({ type: 'GeometryCollection', geometries: [] })).toBeNull();
  });

  it('ignores points and lines when polygons have area', () => {
    expect(
      centroid({
        type: 'GeometryCollection',
        geometries: [box(0, 0, 2, 2), { type: 'Point', coordinates: [100, 50] }],
      }),
    ).toEqual([1, 1]);
  });
});
