import { describe, expect, it } from 'vitest';
import { AreaGeometryInput, FeatureCollectionInput, GEOMETRY_TYPES, GeometryInput } from '../index';
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
