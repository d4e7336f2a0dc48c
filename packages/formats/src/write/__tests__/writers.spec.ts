/** The pure export writers: CSV quoting (RFC 4180), WKT of every geometry type. */
import type { Geometry } from '@eo/domain';
import { describe, expect, it } from 'vitest';
import { square } from '../../testing/square';
import { csvField, toCsv } from '../csv';
import type { ExportFeature } from '../feature';
import { featuresToCsv } from '../table';
import { toWkt } from '../wkt';

describe('csv', () => {
  it('quotes fields with a comma, quote, CR or LF and doubles the quotes; others stay bare', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(12.5)).toBe('12.5');
    expect(csvField(false)).toBe('false');
  });

  it('rows end in CRLF; non-ASCII text is kept as it is', () => {
    expect(
      toCsv(
        ['name', 'n'],
        [
          ['Çayır, köy', 1],
          ['東京', null],
        ],
      ),
    ).toBe('name,n\r\n"Çayır, köy",1\r\n東京,\r\n');
  });

  it('features: the union of attributes (first seen first), WKT last when asked', () => {
    const features: ExportFeature[] = [
      { geometry: { type: 'Point', coordinates: [1, 2] }, properties: { id: 'a', x: 1 } },
      { geometry: null, properties: { id: 'b', y: 'z' } },
    ];
    expect(featuresToCsv(features, false)).toBe('id,x,y\r\na,1,\r\nb,,z\r\n');
    expect(featuresToCsv(features, true)).toBe('id,x,y,wkt\r\na,1,,POINT (1 2)\r\nb,,z,\r\n');
  });
});

describe('wkt', () => {
  it('polygons keep their holes; multipolygons their parts; a third coordinate is dropped', () => {
    const holed: Geometry = { type: 'Polygon', coordinates: [square(0, 0, 10), square(2, 2, 1)] };
    expect(toWkt(holed)).toBe('POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 3 2, 3 3, 2 3, 2 2))');
    const multi: Geometry = {
      type: 'MultiPolygon',
      coordinates: [[square(0, 0, 1)], [square(179.5, -1, 1), square(179.6, -0.9, 0.1)]],
    };
    expect(toWkt(multi)).toBe(
      'MULTIPOLYGON (((0 0, 1 0, 1 1, 0 1, 0 0)), ((179.5 -1, 180.5 -1, 180.5 0, 179.5 0, 179.5 -1), (179.6 -0.9, 179.7 -0.9, 179.7 -0.8, 179.6 -0.8, 179.6 -0.9)))',
    );
    expect(toWkt({ type: 'Point', coordinates: [1, 2, 30] })).toBe('POINT (1 2)');
  });

  it('every other type, and empty ones', () => {
    expect(
      toWkt({
        type: 'MultiPoint',
        coordinates: [
          [1, 2],
          [3, 4],
        ],
      }),
    ).toBe('MULTIPOINT (1 2, 3 4)');
    expect(
      toWkt({
        type: 'LineString',
        coordinates: [
          [0, 0],
          [1, 1],
        ],
      }),
    ).toBe('LINESTRING (0 0, 1 1)');
    expect(
      toWkt({
        type: 'MultiLineString',
        coordinates: [
          [
            [0, 0],
            [1, 1],
          ],
          [
            [2, 2],
            [3, 3],
          ],
        ],
      }),
    ).toBe('MULTILINESTRING ((0 0, 1 1), (2 2, 3 3))');
    expect(
      toWkt({
        type: 'GeometryCollection',
        geometries: [
          { type: 'Point', coordinates: [1, 2] },
          { type: 'LineString', coordinates: [] },
        ],
      }),
    ).toBe('GEOMETRYCOLLECTION (POINT (1 2), LINESTRING EMPTY)');
    expect(toWkt({ type: 'Polygon', coordinates: [] })).toBe('POLYGON EMPTY');
    expect(toWkt({ type: 'GeometryCollection', geometries: [] })).toBe('GEOMETRYCOLLECTION EMPTY');
  });
});
