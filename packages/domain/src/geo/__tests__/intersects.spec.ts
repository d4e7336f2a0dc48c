import { describe, expect, it } from 'vitest';
import type {
  Geometry,
  GeometryCollection,
  LineString,
  MultiLineString,
  MultiPoint,
  MultiPolygon,
  Point,
  Polygon,
} from '../../geometry';
import { geometryIntersects, pointInRing, pointOnSegment, segmentsIntersect } from '../intersects';
import { makeChain } from '../primitives';

const pt = (x: number, y: number): Point => ({ type: 'Point', coordinates: [x, y] });
const mpt = (...ps: Array<[number, number]>): MultiPoint => ({
  type: 'MultiPoint',
  coordinates: ps,
});
const line = (...ps: Array<[number, number]>): LineString => ({
  type: 'LineString',
  coordinates: ps,
});
const mline = (...ls: Array<Array<[number, number]>>): MultiLineString => ({
  type: 'MultiLineString',
  coordinates: ls,
});
const ring = (w: number, s: number, e: number, n: number) => [
  [w, s],
  [e, s],
  [e, n],
  [w, n],
  [w, s],
];
const box = (w: number, s: number, e: number, n: number): Polygon => ({
  type: 'Polygon',
  coordinates: [ring(w, s, e, n)],
});
const mpoly = (...ps: Polygon[]): MultiPolygon => ({
  type: 'MultiPolygon',
  coordinates: ps.map((p) => p.coordinates),
});
const gc = (...gs: Geometry[]): GeometryCollection => ({
  type: 'GeometryCollection',
  geometries: gs,
});

/** 0..10 square with a 3..7 hole (hole ring clockwise, as RFC 7946 asks). */
const donut: Polygon = {
  type: 'Polygon',
  coordinates: [ring(0, 0, 10, 10), ring(3, 3, 7, 7).reverse()],
};
const far = box(50, 50, 51, 51);

type Case = [name: string, a: Geometry, b: Geometry, expected: boolean];

const cases: Case[] = [
  // Point x Point
  ['point = point', pt(1, 2), pt(1, 2), true],
  ['point != point', pt(1, 2), pt(1, 2.000001), false],
  // Point x MultiPoint
  ['point in multipoint', pt(3, 4), mpt([0, 0], [3, 4]), true],
  ['point not in multipoint', pt(3, 5), mpt([0, 0], [3, 4]), false],
  // Point x LineString
  ['point inside a segment', pt(2, 2), line([0, 0], [4, 4]), true],
  ['point on a vertex of a line', pt(4, 4), line([0, 0], [4, 4], [8, 0]), true],
  ['point off a line', pt(2, 2.0000001), line([0, 0], [4, 4]), false],
  ['point collinear beyond the end', pt(5, 5), line([0, 0], [4, 4]), false],
  // Point x MultiLineString
  [
    'point on the second line',
    pt(1, 9),
    mline(
      [
        [0, 0],
        [1, 1],
      ],
      [
        [0, 9],
        [2, 9],
      ],
    ),
    true,
  ],
  [
    'point near no line',
    pt(1, 5),
    mline(
      [
        [0, 0],
        [1, 1],
      ],
      [
        [0, 9],
        [2, 9],
      ],
    ),
    false,
  ],
  // Point x Polygon
  ['point inside', pt(1, 1), donut, true],
  ['point on the outer edge', pt(10, 5), donut, true],
  ['point on an outer vertex', pt(0, 0), donut, true],
  ['point inside the hole', pt(5, 5), donut, false],
  ['point on the hole ring', pt(3, 5), donut, true],
  ['point on a hole vertex', pt(7, 7), donut, true],
  ['point outside', pt(11, 5), donut, false],
  ['point level with a vertex, outside', pt(-1, 10), donut, false],
  // Point x MultiPolygon
  ['point in the second polygon', pt(50.5, 50.5), mpoly(donut, far), true],
  ['point in the hole of the first polygon', pt(5, 5), mpoly(donut, far), false],
  // Point x GeometryCollection
  ['point in a collection member', pt(5, 5), gc(line([0, 0], [1, 1]), box(4, 4, 6, 6)), true],
  ['point outside every member', pt(3, 3.5), gc(line([0, 0], [1, 1]), box(4, 4, 6, 6)), false],
  // MultiPoint x MultiPoint
  ['multipoints share one point', mpt([0, 0], [1, 1]), mpt([2, 2], [1, 1]), true],
  ['multipoints share none', mpt([0, 0], [1, 1]), mpt([2, 2], [1, 2]), false],
  // MultiPoint x LineString
  ['one point of many on a line', mpt([9, 9], [1, 0]), line([0, 0], [2, 0]), true],
  ['no point on the line', mpt([9, 9], [1, 0.5]), line([0, 0], [2, 0]), false],
  // MultiPoint x MultiLineString
  [
    'multipoint misses multiline',
    mpt([5, 5]),
    mline(
      [
        [0, 0],
        [1, 1],
      ],
      [
        [4, 4],
        [4, 6],
      ],
    ),
    false,
  ],
  [
    'multipoint touches multiline',
    mpt([4, 5]),
    mline(
      [
        [0, 0],
        [1, 1],
      ],
      [
        [4, 4],
        [4, 6],
      ],
    ),
    true,
  ],
  // MultiPoint x Polygon
  ['all points in the hole', mpt([4, 4], [6, 6]), donut, false],
  ['one point in the ring area', mpt([4, 4], [1, 1]), donut, true],
  // MultiPoint x MultiPolygon
  ['multipoint in a multipolygon', mpt([100, 0], [50, 50]), mpoly(donut, far), true],
  // MultiPoint x GeometryCollection
  ['multipoint vs collection of points', mpt([1, 1]), gc(pt(1, 1), pt(2, 2)), true],
  // LineString x LineString
  ['crossing lines', line([0, 0], [2, 2]), line([0, 2], [2, 0]), true],
  ['T touch', line([0, 0], [2, 0]), line([1, 0], [1, 5]), true],
  ['shared endpoint', line([0, 0], [1, 1]), line([1, 1], [2, 0]), true],
  ['collinear overlap', line([0, 0], [4, 0]), line([3, 0], [9, 0]), true],
  ['collinear touching ends', line([0, 0], [3, 0]), line([3, 0], [9, 0]), true],
  ['collinear with a gap', line([0, 0], [2, 0]), line([3, 0], [9, 0]), false],
  ['parallel', line([0, 0], [4, 0]), line([0, 1], [4, 1]), false],
  ['almost touching', line([0, 0], [2, 0]), line([1, 1e-12], [1, 5]), false],
  ['one contains the other (collinear)', line([0, 0], [10, 10]), line([2, 2], [3, 3]), true],
  // LineString x MultiLineString
  [
    'line crosses the second of a multiline',
    line([5, -1], [5, 1]),
    mline(
      [
        [0, 5],
        [1, 5],
      ],
      [
        [0, 0],
        [9, 0],
      ],
    ),
    true,
  ],
  // LineString x Polygon
  ['line crossing the outer ring', line([-5, 5], [1, 5]), donut, true],
  ['line inside the ring area, touching nothing', line([1, 1], [2, 2]), donut, true],
  ['line inside the hole', line([4, 4], [6, 6]), donut, false],
  ['line in the hole touching its ring', line([5, 5], [7, 5]), donut, true],
  ['line along the outer edge', line([0, 0], [0, 10]), donut, true],
  ['line outside', line([11, 0], [11, 10]), donut, false],
  ['line crossing the whole hole', line([2, 5], [8, 5]), donut, true],
  // LineString x MultiPolygon
  ['line touching a multipolygon corner', line([51, 51], [60, 60]), mpoly(donut, far), true],
  // LineString x GeometryCollection
  ['line vs collection', line([0, 0], [1, 0]), gc(pt(0.5, 0), box(20, 20, 21, 21)), true],
  // MultiLineString x MultiLineString
  [
    'multilines crossing',
    mline(
      [
        [0, 0],
        [1, 1],
      ],
      [
        [5, 0],
        [5, 9],
      ],
    ),
    mline([
      [4, 4],
      [6, 4],
    ]),
    true,
  ],
  [
    'multilines apart',
    mline([
      [0, 0],
      [1, 1],
    ]),
    mline(
      [
        [4, 4],
        [6, 4],
      ],
      [
        [2, 0],
        [3, 1],
      ],
    ),
    false,
  ],
  // MultiLineString x Polygon
  [
    'multiline, one part in the hole',
    mline(
      [
        [4, 4],
        [5, 5],
      ],
      [
        [20, 20],
        [21, 21],
      ],
    ),
    donut,
    false,
  ],
  [
    'multiline, one part in the area',
    mline(
      [
        [4, 4],
        [5, 5],
      ],
      [
        [1, 1],
        [1, 2],
      ],
    ),
    donut,
    true,
  ],
  // MultiLineString x MultiPolygon
  [
    'multiline vs multipolygon',
    mline([
      [50.5, 50.5],
      [50.6, 50.6],
    ]),
    mpoly(far, donut),
    true,
  ],
  // MultiLineString x GeometryCollection
  [
    'multiline vs collection miss',
    mline([
      [0, 0],
      [1, 0],
    ]),
    gc(pt(0.5, 0.1)),
    false,
  ],
  // Polygon x Polygon
  ['overlapping boxes', box(0, 0, 2, 2), box(1, 1, 3, 3), true],
  ['boxes sharing an edge', box(0, 0, 2, 2), box(2, 0, 4, 2), true],
  ['boxes sharing a corner', box(0, 0, 2, 2), box(2, 2, 4, 4), true],
  ['box containing a box', box(0, 0, 10, 10), box(4, 4, 5, 5), true],
  ['box contained in a box', box(4, 4, 5, 5), box(0, 0, 10, 10), true],
  ['disjoint boxes', box(0, 0, 1, 1), box(1.5, 0, 3, 1), false],
  ['small footprint inside the hole', box(4, 4, 6, 6), donut, false],
  ['footprint in the hole touching its ring', box(4, 4, 7, 6), donut, true],
  ['footprint filling exactly the hole', box(3, 3, 7, 7), donut, true],
  ['footprint covering the hole, inside the exterior', box(2, 2, 8, 8), donut, true],
  ['footprint covering the whole donut', box(-1, -1, 11, 11), donut, true],
  [
    'triangle tip touching an edge',
    {
      type: 'Polygon',
      coordinates: [
        [
          [10, 5],
          [12, 4],
          [12, 6],
          [10, 5],
        ],
      ],
    },
    donut,
    true,
  ],
  // Polygon x MultiPolygon
  ['polygon between multipolygon parts', box(20, 20, 30, 30), mpoly(donut, far), false],
  ['polygon overlapping a part', box(49, 49, 50.5, 50.5), mpoly(donut, far), true],
  // Polygon x GeometryCollection
  ['polygon vs collection with a polygon in the hole', donut, gc(box(4, 4, 5, 5), pt(6, 6)), false],
  ['polygon vs collection with a line into the area', donut, gc(line([5, 5], [5, 1])), true],
  // MultiPolygon x MultiPolygon
  [
    'multipolygons touching at a corner',
    mpoly(box(0, 0, 1, 1), far),
    mpoly(box(51, 51, 52, 52)),
    true,
  ],
  ['multipolygons apart', mpoly(box(0, 0, 1, 1)), mpoly(box(2, 2, 3, 3), box(4, 4, 5, 5)), false],
  // MultiPolygon x GeometryCollection
  ['multipolygon vs nested collection', mpoly(far), gc(gc(pt(0, 0)), gc(gc(pt(50.2, 50.9)))), true],
  // GeometryCollection x GeometryCollection
  ['collections sharing nothing', gc(pt(0, 0), line([1, 1], [2, 2])), gc(box(3, 3, 4, 4)), false],
  [
    'collections meeting through nested members',
    gc(pt(0, 0), gc(line([1, 1], [2, 2]))),
    gc(gc(box(2, 2, 4, 4))),
    true,
  ],
  // Empty geometries
  ['empty collection', gc(), box(-180, -90, 180, 90), false],
  ['empty multipoint', mpt(), box(-180, -90, 180, 90), false],
];

describe('geometryIntersects', () => {
  it.each(cases)('%s', (_name, a, b, expected) => {
    expect(geometryIntersects(a, b)).toBe(expected);
    expect(geometryIntersects(b, a)).toBe(expected);
  });

  it('covers every pair of geometry types', () => {
    const types = [
      'Point',
      'MultiPoint',
      'LineString',
      'MultiLineString',
      'Polygon',
      'MultiPolygon',
      'GeometryCollection',
    ];
    const seen = new Set(cases.map(([, a, b]) => [a.type, b.type].sort().join('+')));
    for (const t of types) for (const u of types) expect(seen).toContain([t, u].sort().join('+'));
  });

  it('reads unclosed rings as closed and single-position lines as points', () => {
    const open: Polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [4, 0],
          [4, 4],
          [0, 4],
        ],
      ],
    };
    expect(geometryIntersects(pt(0, 2), open)).toBe(true); // on the implicit closing edge
    expect(geometryIntersects(pt(2, 2), open)).toBe(true);
    expect(geometryIntersects(line([1, 1]), open)).toBe(true);
    expect(geometryIntersects(line([5, 5]), open)).toBe(false);
  });

  it('ignores altitude', () => {
    expect(geometryIntersects({ type: 'Point', coordinates: [1, 1, 500] }, box(0, 0, 2, 2))).toBe(
      true,
    );
  });

  it('treats touching footprints built from the same decimal coordinates as intersecting', () => {
    const a: Polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [12.3456789, 45.1],
          [12.9876543, 45.23456],
          [12.77777, 45.999],
          [12.3456789, 45.1],
        ],
      ],
    };
    const b: Polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [12.9876543, 45.23456],
          [12.3456789, 45.1],
          [12.5, 44.2],
          [12.9876543, 45.23456],
        ],
      ],
    };
    expect(geometryIntersects(a, b)).toBe(true);
    expect(geometryIntersects(pt(12.77777, 45.999), a)).toBe(true);
  });
});

describe('segment and ring predicates', () => {
  it('segmentsIntersect handles degenerate segments as points', () => {
    expect(segmentsIntersect(1, 1, 1, 1, 0, 0, 2, 2)).toBe(true);
    expect(segmentsIntersect(1, 1, 1, 1, 0, 0, 2, 2.5)).toBe(false);
    expect(segmentsIntersect(1, 1, 1, 1, 1, 1, 1, 1)).toBe(true);
    expect(segmentsIntersect(1, 1, 1, 1, 1, 2, 1, 2)).toBe(false);
  });

  it('segmentsIntersect on vertical collinear segments', () => {
    expect(segmentsIntersect(0, 0, 0, 2, 0, 2, 0, 5)).toBe(true);
    expect(segmentsIntersect(0, 0, 0, 2, 0, 2.5, 0, 5)).toBe(false);
  });

  it('pointOnSegment is closed', () => {
    expect(pointOnSegment(0, 0, 0, 0, 3, 3)).toBe(true);
    expect(pointOnSegment(3, 3, 0, 0, 3, 3)).toBe(true);
    expect(pointOnSegment(3.5, 3.5, 0, 0, 3, 3)).toBe(false);
  });

  it('pointInRing counts a vertex on the ray once', () => {
    // Diamond: the ray from (-1, 0) passes through the vertices (0, 0)... and (2, 0).
    const diamond = makeChain(
      [
        [0, 0],
        [1, -1],
        [2, 0],
        [1, 1],
        [0, 0],
      ],
      true,
    )!;
    expect(pointInRing(diamond, -1, 0)).toBe(-1);
    expect(pointInRing(diamond, 1, 0)).toBe(1);
    expect(pointInRing(diamond, 0, 0)).toBe(0);
    expect(pointInRing(diamond, 0.5, 0.5)).toBe(0);
    expect(pointInRing(diamond, 3, 0)).toBe(-1);
  });
});
