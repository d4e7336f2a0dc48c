/** Area checks: the repairs with one right answer, and refusals that say what is wrong where. */
import { LIMITS, type Geometry, type Position } from '@eo/domain';
import { describe, expect, it } from 'vitest';
import { ACROSS_ANTIMERIDIAN } from '../../__tests__/fixtures';
import { checkArea, mergeAreas } from '../area';

const box = (x: number, y: number, d: number): Position[] => [
  [x, y],
  [x + d, y],
  [x + d, y + d],
  [x, y + d],
  [x, y],
];

describe('checkArea', () => {
  it('a valid RFC 7946 polygon passes untouched', () => {
    const g: Geometry = { type: 'Polygon', coordinates: [box(10, 10, 1)] };
    expect(checkArea(g)).toEqual({ area: g, repairs: [], problem: null });
  });

  it('closes open rings, drops repeated positions and heights, turns rings to RFC 7946', () => {
    const outer = [...box(10, 10, 4)].reverse().slice(0, -1); // clockwise and open
    outer.splice(1, 0, [...outer[1]!]); // a repeated position
    const holeCcw = box(11, 11, 1).map(([x, y]) => [x!, y!, 250]); // counter-clockwise, 3D
    const result = checkArea({ type: 'Polygon', coordinates: [outer, holeCcw] });
    expect(result.problem).toBeNull();
    expect(result.repairs).toEqual([
      'removed 1 repeated position',
      'closed 1 open ring',
      'turned 2 rings to RFC 7946 orientation',
      'dropped the third coordinate (height)',
    ]);
    expect(result.area).toEqual({
      type: 'Polygon',
      coordinates: [box(10, 10, 4), [...box(11, 11, 1)].reverse()],
    });
  });

  it('a track that ends where it started becomes the area it walks around (said so)', () => {
    const track = box(10, 10, 0.01).slice(0, -1);
    track.push([10.0001, 10.0001]); // ~15 m from the start
    const result = checkArea({ type: 'LineString', coordinates: track });
    expect(result.problem).toBeNull();
    expect(result.repairs[0]).toMatch(/^the line ends where it starts \(16 m apart\)/);
    expect(result.area?.type).toBe('Polygon');
  });

  it.each([
    [{ type: 'Point', coordinates: [1, 2] }, 'a point where an area is needed'],
    [{ type: 'MultiPoint', coordinates: [[1, 2]] }, 'a set of points where an area is needed'],
    [
      {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [1, 1],
          [2, 0],
          [3, 3],
        ],
      },
      'a line where an area is needed (its ends are not within 50 m of each other)',
    ],
    [
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [2, 2],
            [2, 0],
            [0, 2],
            [0, 0],
          ],
        ],
      },
      'outer ring: the ring crosses or touches itself',
    ],
    [
      {
        type: 'MultiPolygon',
        coordinates: [
          [box(0, 0, 1)],
          [
            [
              [5, 5],
              [6, 6],
              [5, 5],
            ],
          ],
        ],
      },
      'polygon 2, outer ring: a ring needs at least 3 distinct positions',
    ],
    [
      { type: 'Polygon', coordinates: [box(500000, 5300000, 100)] },
      'outer ring: position 500000,5300000 is outside longitude/latitude (a projected file without its CRS?)',
    ],
    [null, 'no geometry'],
  ] as Array<[Geometry | null, string]>)('refuses %j: %s', (g, message) => {
    expect(checkArea(g)).toMatchObject({ area: null, problem: message });
  });

  it('refuses more positions than the service takes, naming the cap', () => {
    const n = LIMITS.maxGeometryVertices + 1;
    const ring: Position[] = [];
    for (let i = 0; i < n - 1; i++) {
      const a = (2 * Math.PI * i) / (n - 1);
      ring.push([Math.cos(a), Math.sin(a)]);
    }
    ring.push(ring[0]!);
    expect(checkArea({ type: 'Polygon', coordinates: [ring] }).problem).toBe(
      `${n} positions: the service takes at most ${LIMITS.maxGeometryVertices} in one geometry`,
    );
  });

  it('a KML MultiGeometry of polygons (a GeometryCollection) is a MultiPolygon', () => {
    const result = checkArea({
      type: 'GeometryCollection',
      geometries: [
        { type: 'Polygon', coordinates: [box(0, 0, 1)] },
        { type: 'Polygon', coordinates: [box(3, 0, 1)] },
      ],
    });
    expect(result).toEqual({
      area: { type: 'MultiPolygon', coordinates: [[box(0, 0, 1)], [box(3, 0, 1)]] },
      repairs: [],
      problem: null,
    });
  });

  it('mergeAreas puts every polygon side by side in one MultiPolygon', () => {
    expect(
      mergeAreas([
        { type: 'Polygon', coordinates: [box(0, 0, 1)] },
        { type: 'MultiPolygon', coordinates: [[box(3, 0, 1)], [box(6, 0, 1)]] },
      ]),
    ).toEqual({
      type: 'MultiPolygon',
      coordinates: [[box(0, 0, 1)], [box(3, 0, 1)], [box(6, 0, 1)]],
    });
  });
});

describe('across the antimeridian', () => {
  const fiji: Position[] = [
    [179.5, -17],
    [-179.6, -17],
    [-179.6, -16.5],
    [179.5, -16.5],
    [179.5, -17],
  ];
  // The same area as RFC 7946 wants it: one part each side of ±180°.
  const parts = (ACROSS_ANTIMERIDIAN as { coordinates: Position[][][] }).coordinates;

  it('one ring jumping from 179.5° to -179.6° (as Google Earth writes it) is split at ±180°', () => {
    expect(checkArea({ type: 'Polygon', coordinates: [fiji] })).toEqual({
      area: { type: 'MultiPolygon', coordinates: parts },
      repairs: ['split 1 polygon at the antimeridian (±180°)'],
      problem: null,
    });
  });

  it('so is a ring written with longitudes past 180°, and a hole stays on its side', () => {
    const unwrapped = fiji.map(([x, y]) => [x! < 0 ? x! + 360 : x!, y!]);
    const hole: Position[] = [
      [180.1, -16.9],
      [180.1, -16.6],
      [180.3, -16.6],
      [180.3, -16.9],
      [180.1, -16.9],
    ];
    const result = checkArea({ type: 'Polygon', coordinates: [unwrapped, hole] });
    expect(result.problem).toBeNull();
    expect(result.area).toEqual({
      type: 'MultiPolygon',
      coordinates: [parts[0], [parts[1]![0], hole.map(([x, y]) => [x! - 360, y])]],
    });
  });

  it('a ring around a pole cannot be split: refused', () => {
    const ring: Position[] = [-180, -90, 0, 90].map((x) => [x, 80]);
    ring.push([179, 80], [-180, 80]);
    expect(checkArea({ type: 'Polygon', coordinates: [ring] }).problem).toBe(
      'a ring goes around a pole (its longitudes wrap 360°)',
    );
  });
});
