/** The pure export writers: CSV quoting (RFC 4180), WKT of every geometry type, GeoJSON text. */
import type { Geometry } from '@eo/domain';
import { describe, expect, it } from 'vitest';
import { square } from './square';
import { csvField, toCsv } from '../csv';
import type { ExportFeature } from '../feature';
import { toGeoJson } from '../geojson';
import { catalogFeature, orderItemGeometry } from '../records';
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

describe('records as features', () => {
  it('a catalog record: id, collection, scalar STAC properties; its antimeridian bbox as it has it', () => {
    const record = {
      id: 'AUR1_X',
      details: {
        collection: 'col-aurora-l2a',
        bbox: [179.5, -1, -179.5, 0],
        geometry: {
          type: 'MultiPolygon',
          coordinates: [[square(179.5, -1, 0.5)], [square(-180, -1, 0.5)]],
        },
        properties: {
          datetime: '2024-05-01T10:00:00Z',
          'eo:cloud_cover': 12.5,
          platform: 'aurora-1',
          'proj:shape': [10, 10],
          'view:sun': { azimuth: 1 },
        },
      },
    };
    const f = catalogFeature(record);
    expect(f.properties).toEqual({
      id: 'AUR1_X',
      collection: 'col-aurora-l2a',
      datetime: '2024-05-01T10:00:00Z',
      'eo:cloud_cover': 12.5,
      platform: 'aurora-1',
    });
    expect(f.bbox).toEqual([179.5, -1, -179.5, 0]);
    const doc = JSON.parse(toGeoJson([f])) as {
      type: string;
      features: Array<{ type: string; bbox: number[]; geometry: unknown; properties: unknown }>;
    };
    expect(doc.type).toBe('FeatureCollection');
    expect(doc.features[0]).toEqual({
      type: 'Feature',
      bbox: [179.5, -1, -179.5, 0],
      geometry: record.details.geometry,
      properties: f.properties,
    });
  });

  it('a record without details or with an unreadable footprint: attributes, null geometry', () => {
    expect(catalogFeature({ id: 'bare' })).toEqual({
      geometry: null,
      properties: {
        id: 'bare',
        datetime: null,
        collection: null,
        'eo:cloud_cover': null,
        platform: null,
      },
      bbox: undefined,
    });
    expect(catalogFeature({ id: 'x', details: { geometry: { type: 'Blob' } } }).geometry).toBe(
      null,
    );
    expect(toGeoJson([catalogFeature({ id: 'bare' })])).toBe(
      '{"type":"FeatureCollection","features":[{"type":"Feature","geometry":null,"properties":{"id":"bare","datetime":null,"collection":null,"eo:cloud_cover":null,"platform":null}}]}\n',
    );
  });

  it("an order item's FeatureCollection: one area as it is, several areas as one MultiPolygon", () => {
    const a = { type: 'Polygon' as const, coordinates: [square(0, 0, 1), square(0.2, 0.2, 0.1)] };
    const b = { type: 'Polygon' as const, coordinates: [square(5, 5, 1)] };
    const fc = (...gs: Geometry[]) => ({
      type: 'FeatureCollection',
      features: gs.map((geometry) => ({ type: 'Feature', geometry })),
    });
    expect(orderItemGeometry(fc(a))).toEqual(a);
    expect(orderItemGeometry(fc(a, b))).toEqual({
      type: 'MultiPolygon',
      coordinates: [a.coordinates, b.coordinates],
    });
    const p = { type: 'Point' as const, coordinates: [1, 1] };
    expect(orderItemGeometry(fc(a, p))).toEqual({ type: 'GeometryCollection', geometries: [a, p] });
    expect(orderItemGeometry(b)).toEqual(b);
    expect(orderItemGeometry(null)).toBe(null);
    expect(orderItemGeometry(fc())).toBe(null);
  });
});
