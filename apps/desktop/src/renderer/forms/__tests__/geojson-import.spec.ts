import { FeatureCollectionInput } from '@eo/domain';
import { describe, expect, it } from 'vitest';
import { areaOf, importGeoJson } from '../geojson-import';

const ring = [
  [10, 10],
  [11, 10],
  [11, 11],
  [10, 11],
  [10, 10],
];
const polygon = { type: 'Polygon', coordinates: [ring] };
const shifted = { type: 'Polygon', coordinates: [ring.map(([x, y]) => [x! + 5, y!])] };

describe('importGeoJson', () => {
  it('reads a FeatureCollection, keeping its features and dropping foreign members', () => {
    const r = importGeoJson(
      JSON.stringify({
        type: 'FeatureCollection',
        name: 'fields', // QGIS writes these; the strict request schema would refuse them
        crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:OGC:1.3:CRS84' } },
        features: [
          { type: 'Feature', properties: { id: 1 }, geometry: polygon, extra: true },
          { type: 'Feature', properties: null, geometry: shifted },
        ],
      }),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.features).toHaveLength(2);
    expect(r.value.features[1]!.geometry).toEqual(shifted);
    expect(Object.keys(r.value)).toEqual(['type', 'features']);
    expect(FeatureCollectionInput.safeParse(r.value).success).toBe(true);
  });

  it('wraps a single Feature and a bare geometry into a FeatureCollection', () => {
    const feature = importGeoJson(
      JSON.stringify({ type: 'Feature', properties: {}, geometry: polygon }),
    );
    expect(feature).toEqual({
      ok: true,
      value: {
        type: 'FeatureCollection',
        features: [{ type: 'Feature', properties: {}, geometry: polygon }],
      },
    });
    const bare = importGeoJson(JSON.stringify({ type: 'Point', coordinates: [3, 4] }));
    expect(bare.ok && bare.value.features[0]!.geometry).toEqual({
      type: 'Point',
      coordinates: [3, 4],
    });
  });

  it('says why a file is refused: empty, not JSON, not GeoJSON, bad geometry', () => {
    expect(importGeoJson('  \n')).toEqual({ ok: false, message: 'The file is empty.' });
    const notJson = importGeoJson('{"type": "Feature",');
    expect(notJson.ok).toBe(false);
    expect(!notJson.ok && notJson.message).toMatch(/^The file is not valid JSON/);
    expect(importGeoJson('[1, 2]')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/not GeoJSON: expected a FeatureCollection/),
    });
    expect(importGeoJson('{"type": "Topology"}')).toMatchObject({
      ok: false,
      message: expect.stringContaining('"Topology"'),
    });
    const open = importGeoJson(
      JSON.stringify({ type: 'Polygon', coordinates: [ring.slice(0, 4).concat([[10, 12]])] }),
    );
    expect(!open.ok && open.message).toMatch(/coordinates\.0: a polygon ring must be closed/);
    const outOfRange = importGeoJson(
      JSON.stringify({
        type: 'Feature',
        properties: {},
        geometry: { type: 'Point', coordinates: [200, 0] },
      }),
    );
    expect(!outOfRange.ok && outOfRange.message).toMatch(/longitude must be <= 180/);
    const none = importGeoJson(JSON.stringify({ type: 'FeatureCollection', features: [] }));
    expect(!none.ok && none.message).toMatch(/a feature collection needs at least one feature/);
  });
});

describe('areaOf (AOIs)', () => {
  const fcOf = (...geometries: unknown[]) => {
    const r = importGeoJson(
      JSON.stringify({
        type: 'FeatureCollection',
        features: geometries.map((geometry) => ({ type: 'Feature', properties: {}, geometry })),
      }),
    );
    if (!r.ok) throw new Error(r.message);
    return r.value;
  };

  it('gives one polygon as a Polygon and several as a MultiPolygon', () => {
    expect(areaOf(fcOf(polygon))).toEqual({ ok: true, value: polygon });
    const multi = areaOf(fcOf(polygon, shifted));
    expect(multi).toEqual({
      ok: true,
      value: { type: 'MultiPolygon', coordinates: [polygon.coordinates, shifted.coordinates] },
    });
  });

  it('refuses geometries without an area, naming the feature', () => {
    const r = areaOf(
      fcOf(polygon, {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [1, 1],
        ],
      }),
    );
    expect(r).toEqual({
      ok: false,
      message:
        'An area of interest must be a Polygon or MultiPolygon, but feature 2 is a LineString.',
    });
  });
});
