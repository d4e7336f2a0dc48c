/** Mirrored records as export features, and their GeoJSON text. */
import type { Geometry } from '@eo/domain';
import { toGeoJson } from '@eo/formats';
import { describe, expect, it } from 'vitest';
import { square } from '@eo/formats/testing';
import { catalogFeature, orderItemGeometry } from '../records';

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
      // The record's id at the top level too (RFC 7946 3.2).
      id: 'AUR1_X',
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
      '{"type":"FeatureCollection","features":[{"type":"Feature","id":"bare","geometry":null,"properties":{"id":"bare","datetime":null,"collection":null,"eo:cloud_cover":null,"platform":null}}]}\n',
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
