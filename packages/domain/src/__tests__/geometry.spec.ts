import { describe, expect, it } from 'vitest';
import {
  AreaFeatureCollectionInput,
  AreaGeometryInput,
  FeatureCollectionInput,
  GEOMETRY_TYPES,
  GeometryInput,
  LIMITS,
} from '../index';
import { expectIssueAt, parseOk } from './support';

const square = [
  [0, 0],
  [1, 0],
  [1, 1],
  [0, 1],
  [0, 0],
];

describe('GeometryInput (requests)', () => {
  it.each([
    { type: 'Point', coordinates: [1, 2] },
    { type: 'Point', coordinates: [1, 2, 350] },
    { type: 'MultiPoint', coordinates: [[1, 2]] },
    {
      type: 'LineString',
      coordinates: [
        [1, 2],
        [3, 4],
      ],
    },
    {
      type: 'MultiLineString',
      coordinates: [
        [
          [1, 2],
          [3, 4],
        ],
      ],
    },
    { type: 'Polygon', coordinates: [square] },
    { type: 'MultiPolygon', coordinates: [[square], [square]] },
    { type: 'GeometryCollection', geometries: [{ type: 'Point', coordinates: [1, 2] }] },
  ])('accepts $type', (g) => {
    expect(parseOk(GeometryInput, g)).toEqual(g);
  });

  it('covers every GeoJSON geometry type', () => {
    expect([...GEOMETRY_TYPES].sort()).toEqual(
      [
        'GeometryCollection',
        'LineString',
        'MultiLineString',
        'MultiPoint',
        'MultiPolygon',
        'Point',
        'Polygon',
      ].sort(),
    );
  });

  it('rejects degenerate shapes with their reason', () => {
    expectIssueAt(
      GeometryInput,
      { type: 'LineString', coordinates: [[1, 2]] },
      ['coordinates'],
      'a line string has at least 2 positions',
    );
    expectIssueAt(GeometryInput, { type: 'MultiPoint', coordinates: [] }, ['coordinates']);
    expectIssueAt(
      GeometryInput,
      { type: 'GeometryCollection', geometries: [] },
      ['geometries'],
      'a geometry collection has at least one geometry',
    );
    expectIssueAt(GeometryInput, { type: 'Point', coordinates: [1, 2, 3, 4] }, ['coordinates']);
    expectIssueAt(
      GeometryInput,
      { type: 'Point', coordinates: [1, Number.NaN] },
      ['coordinates'],
      /a position is \[longitude, latitude\]/,
    );
    expectIssueAt(
      GeometryInput,
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [0, 0],
          ],
        ],
      },
      ['coordinates', 0],
      /at least 4 positions/,
    );
    expectIssueAt(GeometryInput, { type: 'Circle', coordinates: [0, 0] }, ['type']);
  });

  it('a ring closed only in 2D is closed (altitude ignored)', () => {
    parseOk(GeometryInput, {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0, 1],
          [1, 0, 1],
          [1, 1, 1],
          [0, 0, 2],
        ],
      ],
    });
  });

  it('nested geometries of a collection are checked too', () => {
    expectIssueAt(
      GeometryInput,
      {
        type: 'GeometryCollection',
        geometries: [
          {
            type: 'Polygon',
            coordinates: [
              [
                [0, 0],
                [1, 0],
                [1, 1],
                [0, 1],
              ],
            ],
          },
        ],
      },
      ['geometries', 0, 'coordinates', 0],
      /must be closed/,
    );
  });

  it('AreaGeometryInput takes only Polygon and MultiPolygon', () => {
    parseOk(AreaGeometryInput, { type: 'Polygon', coordinates: [square] });
    expectIssueAt(
      AreaGeometryInput,
      { type: 'Point', coordinates: [1, 2] },
      ['type'],
      /Polygon.*MultiPolygon/,
    );
  });

  it('FeatureCollectionInput: strict members', () => {
    const fc = {
      type: 'FeatureCollection',
      features: [{ type: 'Feature', geometry: { type: 'Polygon', coordinates: [square] } }],
    };
    parseOk(FeatureCollectionInput, fc);
    expectIssueAt(FeatureCollectionInput, { ...fc, name: 'x' }, []);
    expectIssueAt(FeatureCollectionInput, { ...fc, type: 'Feature' }, ['type']);
  });
});

describe('areas: one validity rule for AOIs and order item features', () => {
  const poly = (...rings: number[][][]) => ({ type: 'Polygon', coordinates: rings });
  const ring = (...pts: number[][]) => [...pts, pts[0]!];
  const box = (w: number, s: number, e: number, n: number) => ring([w, s], [e, s], [e, n], [w, n]);

  it('accepts valid areas: holes, repeated positions, a hole touching its outer ring at a point', () => {
    parseOk(AreaGeometryInput, poly(square));
    parseOk(AreaGeometryInput, poly(box(0, 0, 4, 4), box(1, 1, 2, 2)));
    parseOk(AreaGeometryInput, poly(ring([0, 0], [1, 0], [1, 0], [1, 1], [0, 1])));
    parseOk(AreaGeometryInput, poly(box(0, 0, 4, 4), ring([0, 2], [1, 1], [1, 3])));
    parseOk(AreaGeometryInput, {
      type: 'MultiPolygon',
      coordinates: [[box(0, 0, 1, 1)], [box(2, 2, 3, 3)]],
    });
  });

  it('refuses self-intersecting, degenerate and spiked rings, naming the ring', () => {
    const cases: Array<[object, PropertyKey[], RegExp]> = [
      [poly(ring([0, 0], [1, 1], [1, 0], [0, 1])), ['coordinates', 0], /crosses or touches itself/],
      [poly(ring([0, 0], [1, 1], [2, 2])), ['coordinates', 0], /encloses no area/],
      [poly(ring([0, 0], [1, 1], [1, 1], [0, 0])), ['coordinates', 0], /3 distinct positions/],
      [poly(ring([0, 0], [2, 0], [1, 0], [1, 1])), ['coordinates', 0], /doubles back/],
      [poly(ring([0, 0], [2, 0], [2, 2], [1, 0], [0, 2])), ['coordinates', 0], /itself/],
      [poly(box(0, 0, 2, 2), box(1, 1, 3, 3)), ['coordinates', 1], /ring 1 crosses ring 0/],
      [poly(box(0, 0, 2, 2), box(0, 0, 1, 1)), ['coordinates', 1], /ring 1 crosses ring 0/],
      [
        {
          type: 'MultiPolygon',
          coordinates: [[box(0, 0, 1, 1)], [ring([0, 0], [1, 1], [1, 0], [0, 1])]],
        },
        ['coordinates', 1, 0],
        /crosses/,
      ],
    ];
    for (const [g, path, message] of cases) expectIssueAt(AreaGeometryInput, g, path, message);
  });

  it('refuses points and lines where an area is needed (order items, like AOIs)', () => {
    expectIssueAt(AreaGeometryInput, { type: 'Point', coordinates: [1, 2] }, ['type']);
    const fc = (geometry: object) => ({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', geometry }],
    });
    expectIssueAt(AreaFeatureCollectionInput, fc({ type: 'Point', coordinates: [1, 2] }), [
      'features',
      0,
      'geometry',
      'type',
    ]);
    expectIssueAt(AreaFeatureCollectionInput, fc(poly(ring([0, 0], [1, 1], [1, 0], [0, 1]))), [
      'features',
      0,
      'geometry',
      'coordinates',
      0,
    ]);
    parseOk(AreaFeatureCollectionInput, fc(poly(square)));
    // The importer's form still takes any geometry: the order item schema says what is missing.
    parseOk(FeatureCollectionInput, fc({ type: 'Point', coordinates: [1, 2] }));
  });
});

describe('geometry caps (LIMITS)', () => {
  /** A valid ring of n positions (plus the closing one) around a circle. */
  const circle = (n: number, cx = 0, cy = 0, r = 1) => {
    const pts = Array.from({ length: n }, (_, i) => [
      cx + r * Math.cos((2 * Math.PI * i) / n),
      cy + r * Math.sin((2 * Math.PI * i) / n),
    ]);
    return [...pts, pts[0]!];
  };

  it('vertices per geometry, over all rings and parts', () => {
    const max = LIMITS.maxGeometryVertices;
    parseOk(AreaGeometryInput, { type: 'Polygon', coordinates: [circle(max - 1)] });
    expectIssueAt(AreaGeometryInput, { type: 'Polygon', coordinates: [circle(max)] }, [
      'coordinates',
      0,
    ]);
    const half = { type: 'Polygon', coordinates: [circle(max / 2, 0, 0)] };
    expectIssueAt(
      GeometryInput,
      { type: 'GeometryCollection', geometries: [half, half] },
      [],
      /at most 10000 positions; this one has 10002/,
    );
    expectIssueAt(
      AreaGeometryInput,
      {
        type: 'MultiPolygon',
        coordinates: [[circle(max / 2, 0, 0)], [circle(max / 2, 5, 5)]],
      },
      [],
      /at most 10000 positions/,
    );
  });

  it('parts per geometry and holes per polygon', () => {
    const parts = Array.from({ length: LIMITS.maxGeometryParts + 1 }, (_, i) => [
      circle(3, i * 3, 0),
    ]);
    expectIssueAt(AreaGeometryInput, { type: 'MultiPolygon', coordinates: parts }, ['coordinates']);
    const holes = Array.from({ length: LIMITS.maxPolygonHoles + 1 }, (_, i) =>
      circle(3, -50 + (i % 10) * 10, -50 + Math.floor(i / 10) * 10, 1),
    );
    expectIssueAt(
      AreaGeometryInput,
      { type: 'Polygon', coordinates: [circle(8, 0, 0, 89), ...holes] },
      ['coordinates'],
      /at most 100 holes/,
    );
  });

  it('an order item: features and vertices over all its features together', () => {
    const feature = (n: number) => ({
      type: 'Feature',
      geometry: { type: 'Polygon', coordinates: [circle(n)] },
    });
    const many = Array.from({ length: LIMITS.maxGeometryParts + 1 }, () => feature(3));
    expectIssueAt(AreaFeatureCollectionInput, { type: 'FeatureCollection', features: many }, [
      'features',
    ]);
    const big = LIMITS.maxGeometryVertices / 2;
    expectIssueAt(
      AreaFeatureCollectionInput,
      { type: 'FeatureCollection', features: [feature(big), feature(big)] },
      ['features'],
      /together/,
    );
  });
});
