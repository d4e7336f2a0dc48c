import { describe, expect, it } from 'vitest';
import { bboxBounds, bboxPolygons, boundsIntersect, geometryBbox } from '../bbox';
import { geometryPrimitives } from '../primitives';

describe('bboxPolygons', () => {
  it('is one counter-clockwise rectangle for an ordinary box', () => {
    expect(bboxPolygons([10, 20, 30, 40])).toEqual([
      {
        type: 'Polygon',
        coordinates: [
          [
            [10, 20],
            [30, 20],
            [30, 40],
            [10, 40],
            [10, 20],
          ],
        ],
      },
    ]);
  });

  it('splits a box crossing the antimeridian into [w..180] and [-180..e]', () => {
    const [east, west] = bboxPolygons([160.6, -55.95, -170, -25.89]);
    expect(east?.coordinates[0]).toEqual([
      [160.6, -55.95],
      [180, -55.95],
      [180, -25.89],
      [160.6, -25.89],
      [160.6, -55.95],
    ]);
    expect(west?.coordinates[0]).toEqual([
      [-180, -55.95],
      [-170, -55.95],
      [-170, -25.89],
      [-180, -25.89],
      [-180, -55.95],
    ]);
    expect(bboxBounds([177, 65, -177, 70])).toEqual([
      [177, 65, 180, 70],
      [-180, 65, -177, 70],
    ]);
  });

  it('keeps a degenerate box (w = e) as one rectangle', () => {
    expect(bboxPolygons([5, 0, 5, 1])).toHaveLength(1);
  });
});

describe('geometryBbox', () => {
  it('is the planar min/max of every position, nested collections included', () => {
    expect(
      geometryBbox({
        type: 'GeometryCollection',
        geometries: [
          { type: 'Point', coordinates: [3, -4, 100] },
          {
            type: 'GeometryCollection',
            geometries: [
              {
                type: 'MultiLineString',
                coordinates: [
                  [
                    [-1, 2],
                    [5, 1],
                  ],
                ],
              },
            ],
          },
          {
            type: 'MultiPolygon',
            coordinates: [
              [
                [
                  [0, 0],
                  [1, 9],
                  [2, 0],
                  [0, 0],
                ],
              ],
            ],
          },
        ],
      }),
    ).toEqual([-1, -4, 5, 9]);
  });

  it('does not unwrap longitudes: a footprint split at the antimeridian spans -180..180', () => {
    expect(
      geometryBbox({
        type: 'MultiPolygon',
        coordinates: [
          [
            [
              [178, 0],
              [180, 0],
              [180, 1],
              [178, 0],
            ],
          ],
          [
            [
              [-180, 0],
              [-179, 0],
              [-180, 1],
              [-180, 0],
            ],
          ],
        ],
      }),
    ).toEqual([-180, 0, 180, 1]);
  });

  it('is null for a geometry without positions', () => {
    expect(geometryBbox({ type: 'GeometryCollection', geometries: [] })).toBeNull();
    expect(geometryBbox({ type: 'MultiPoint', coordinates: [] })).toBeNull();
  });
});

describe('boundsIntersect', () => {
  it('is closed: touching bounds intersect', () => {
    expect(boundsIntersect([0, 0, 1, 1], [1, 1, 2, 2])).toBe(true);
    expect(boundsIntersect([0, 0, 1, 1], [1.0000001, 0, 2, 1])).toBe(false);
  });
});

describe('geometryBbox agrees with geometryPrimitives', () => {
  it('skips what the decomposition skips', () => {
    const odd = {
      type: 'GeometryCollection' as const,
      geometries: [
        {
          type: 'Polygon' as const,
          coordinates: [
            [],
            [
              [50, 50],
              [51, 50],
              [51, 51],
              [50, 50],
            ],
          ],
        },
        { type: 'LineString' as const, coordinates: [[1], [2, 3]] },
        { type: 'Point' as const, coordinates: [4, 5] },
      ],
    };
    expect(geometryBbox(odd)).toEqual([2, 3, 4, 5]);
    expect(geometryPrimitives(odd).bounds).toEqual([2, 3, 4, 5]);
  });
});
