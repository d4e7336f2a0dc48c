import { describe, expect, it } from 'vitest';
import { MAX_TYPED_AREA_CHARS, readTypedArea } from '../typed-area';

const FIELD = [
  [4.55, 43.49],
  [4.65, 43.49],
  [4.65, 43.55],
  [4.55, 43.55],
  [4.55, 43.49],
];

describe('readTypedArea', () => {
  it('reads a box as west, south, east, north, with commas, spaces or brackets', async () => {
    for (const text of [
      '4.55, 43.49, 4.65, 43.55',
      '4.55 43.49 4.65 43.55',
      '[4.55,43.49,4.65,43.55]',
    ]) {
      const r = await readTypedArea(text);
      expect(r, text).toMatchObject({ kind: 'box', problem: null });
      expect(r.area).toEqual({ type: 'Polygon', coordinates: [FIELD] });
    }
  });

  it('splits a box whose west is beyond its east at the antimeridian', async () => {
    const r = await readTypedArea('179.5, -17, -179.5, -16');
    expect(r.kind).toBe('box');
    expect(r.area?.type).toBe('MultiPolygon');
    expect(r.repairs.join(' ')).toMatch(/antimeridian/);
  });

  it('says what is wrong with a box', async () => {
    expect((await readTypedArea('4.65, 43.55, 4.55, 43.49')).problem).toMatch(
      /south must be less than north/,
    );
    expect((await readTypedArea('200, 43, 201, 44')).problem).toMatch(/longitudes/);
    expect((await readTypedArea('4, 95, 5, 96')).problem).toMatch(/latitudes/);
    expect((await readTypedArea('4, 43, 4, 44')).problem).toMatch(/no width/);
  });

  it('reads WKT (with an SRID prefix and a height; an open ring closed)', async () => {
    const wkt = 'SRID=4326;POLYGON Z ((4.55 43.49 1, 4.65 43.49 1, 4.65 43.55 1, 4.55 43.55 1))';
    const r = await readTypedArea(wkt);
    expect(r).toMatchObject({ kind: 'wkt', problem: null });
    expect(r.area).toEqual({ type: 'Polygon', coordinates: [FIELD] });
    expect(r.repairs).toEqual(['closed 1 open ring']);
  });

  it('refuses WKT that is not an area or not WKT, saying where', async () => {
    expect((await readTypedArea('POINT (4.6 43.5)')).problem).toMatch(/point/i);
    expect((await readTypedArea('POLYGON ((4.55 43.49, 4.65')).problem).toMatch(/WKT: expected/);
    const bow = await readTypedArea('POLYGON ((0 0, 1 1, 1 0, 0 1, 0 0))');
    expect(bow.area).toBeNull();
    expect(bow.problem).toMatch(/crosses or touches itself/);
  });

  it('reads GeoJSON: a geometry, a Feature, a FeatureCollection side by side', async () => {
    const polygon = { type: 'Polygon', coordinates: [FIELD] };
    expect((await readTypedArea(JSON.stringify(polygon))).area).toEqual(polygon);
    const feature = { type: 'Feature', properties: { name: 'Field' }, geometry: polygon };
    expect((await readTypedArea(JSON.stringify(feature))).area).toEqual(polygon);
    const shifted = FIELD.map(([x, y]) => [x! + 1, y!]);
    const fc = {
      type: 'FeatureCollection',
      features: [feature, { ...feature, geometry: { type: 'Polygon', coordinates: [shifted] } }],
    };
    const r = await readTypedArea(JSON.stringify(fc));
    expect(r).toMatchObject({ kind: 'geojson', problem: null });
    expect(r.area).toEqual({ type: 'MultiPolygon', coordinates: [[FIELD], [shifted]] });
    expect(r.repairs).toContain('put 2 areas side by side');
  });

  it('reads a FeatureCollection of one polygon as that polygon, nothing repaired', async () => {
    const polygon = { type: 'Polygon', coordinates: [FIELD] };
    const fc = {
      type: 'FeatureCollection',
      features: [{ type: 'Feature', properties: { name: 'Field' }, geometry: polygon }],
    };
    const r = await readTypedArea(JSON.stringify(fc, null, 2));
    expect(r).toMatchObject({ kind: 'geojson', problem: null, area: polygon });
    expect(r.repairs).toEqual([]);
  });

  it('refuses hostile pasted GeoJSON: past the size bound unparsed, an open line as an area', async () => {
    const ring = Array.from({ length: MAX_TYPED_AREA_CHARS / 4 }, (_, i) => [i % 90, i % 45]);
    const huge = JSON.stringify({ type: 'Polygon', coordinates: [ring] });
    expect(huge.length).toBeGreaterThan(MAX_TYPED_AREA_CHARS);
    const tooBig = await readTypedArea(huge);
    expect(tooBig.area).toBeNull();
    expect(tooBig.problem).toMatch(/at most/);
    const line = await readTypedArea(
      JSON.stringify({
        type: 'Feature',
        properties: {},
        geometry: { type: 'LineString', coordinates: FIELD.slice(0, 3) },
      }),
    );
    expect(line.area).toBeNull();
    expect(line.problem).toMatch(/a line where an area is needed/);
  });

  it('refuses broken or empty GeoJSON with a reason', async () => {
    expect((await readTypedArea('{"type": "Polygon", "coordinates": [')).problem).toBeTruthy();
    const point = await readTypedArea('{"type":"Point","coordinates":[4.6,43.5]}');
    expect(point).toMatchObject({ kind: 'geojson', area: null });
    expect(point.problem).toMatch(/point/i);
  });

  it('says what it takes when the text is none of them, and bounds what it reads', async () => {
    expect(await readTypedArea('   ')).toMatchObject({ kind: null, problem: 'nothing typed' });
    expect((await readTypedArea('Camargue')).problem).toMatch(/not a box .*WKT.*GeoJSON/);
    expect((await readTypedArea('1, 2, 3')).problem).toMatch(/not a box/);
    const huge = `POLYGON ((${'1 1, '.repeat(MAX_TYPED_AREA_CHARS / 5)}1 1))`;
    expect((await readTypedArea(huge)).problem).toMatch(/at most/);
  });
});
