/**
 * `files.preview` through the backend's dispatch (output checked against the contract): field
 * files built here with @eo/formats' writers, read back by the backend; the size limit and
 * malformed arguments refused before any parsing. `files.typedArea`: a typed or pasted area.
 */
import {
  exportFeatures,
  MAX_TYPED_AREA_CHARS as FORMATS_MAX_TYPED_AREA_CHARS,
  toShapefileZip,
  type ExportFeature,
} from '@eo/formats';
import { square } from '@eo/formats/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MAX_IMPORT_BASE64_CHARS,
  MAX_IMPORT_FILE_BYTES,
  MAX_TYPED_AREA_CHARS,
} from '../../shared/contract';
import { startBackend, type TestBackend } from './harness';

const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64');

/** WGS 84 / UTM zone 33N as ArcGIS writes it in a .prj (central meridian 15°E). */
const UTM33N_PRJ =
  'PROJCS["WGS_1984_UTM_Zone_33N",GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",500000.0],PARAMETER["False_Northing",0.0],PARAMETER["Central_Meridian",15.0],PARAMETER["Scale_Factor",0.9996],PARAMETER["Latitude_Of_Origin",0.0],UNIT["Meter",1.0]]';

let t: TestBackend | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('files.preview', () => {
  it('reads a KMZ: names, the areas, and a point refused with its reason', async () => {
    t = startBackend();
    const features: ExportFeature[] = [
      {
        geometry: { type: 'Polygon', coordinates: [square(14.1, 46.2, 0.01)] },
        properties: { name: 'Wiese am Bach' },
      },
      { geometry: { type: 'Point', coordinates: [14.2, 46.3] }, properties: { name: 'Brunnen' } },
      {
        geometry: { type: 'Polygon', coordinates: [square(14.3, 46.2, 0.02)] },
        properties: { name: 'Acker Nord' },
      },
    ];
    const kmz = exportFeatures(features, 'kmz') as Uint8Array;
    const preview = await t.call('files.preview', { name: 'felder.kmz', base64: b64(kmz) });
    expect(preview.file).toBe('felder.kmz');
    expect(preview.format).toBe('kmz');
    expect(preview.features.map((f) => f.name)).toEqual(['Wiese am Bach', 'Brunnen', 'Acker Nord']);
    expect(preview.features[0]!.area).toEqual({
      type: 'Polygon',
      coordinates: [square(14.1, 46.2, 0.01)],
    });
    expect(preview.features[1]).toMatchObject({ geometryType: 'Point', area: null });
    expect(preview.features[1]!.problem).toMatch(/point/i);
    expect(preview.features[2]!.problem).toBeNull();
  });

  it('reads a zipped Shapefile in UTM 33N, reprojected to longitude/latitude', async () => {
    t = startBackend();
    // A 1 km square written in metres: easting 500 000 is the zone's central meridian, 15°E.
    const shp = toShapefileZip(
      [
        {
          geometry: { type: 'Polygon', coordinates: [square(500_000, 5_300_000, 1000)] },
          properties: { PARCEL: 'Flurstück 12/3' },
        },
      ],
      { name: 'parcels', crs: { prj: UTM33N_PRJ, project: (p) => p } },
    );
    const preview = await t.call('files.preview', {
      name: 'parcels.zip',
      base64: b64(shp),
      nameField: 'PARCEL',
    });
    expect(preview.format).toBe('shapefile');
    expect(preview.sourceCrs).toMatch(/UTM/);
    const [f] = preview.features;
    expect(f!.name).toBe('Flurstück 12/3');
    expect(f!.problem).toBeNull();
    const ring = (f!.area as { type: 'Polygon'; coordinates: number[][][] }).coordinates[0]!;
    for (const [lon, lat] of ring) {
      expect(lon).toBeGreaterThanOrEqual(14.999);
      expect(lon).toBeLessThan(15.014);
      // proj4 itself: (500 000, 5 300 000) is 47.8533°N, (501 000, 5 301 000) 47.8623°N.
      expect(lat).toBeGreaterThan(47.853);
      expect(lat).toBeLessThan(47.863);
    }
    // The south-west corner on the central meridian: exactly 15°E.
    expect(Math.min(...ring.map((p) => p[0]!))).toBeCloseTo(15, 9);
    expect(Math.min(...ring.map((p) => p[1]!))).toBeCloseTo(47.853342, 5);
  });

  it('reads a GPX: a walked field boundary becomes an area, the way to it does not', async () => {
    t = startBackend();
    // Around a field, coming back down its west side to ~2 m short of where the walk started.
    const walk = [...square(16.37, 48.21, 0.002).slice(0, -1), [16.37, 48.21002]];
    const pts = (ps: number[][]) =>
      ps.map(([lon, lat]) => `<trkpt lat="${lat}" lon="${lon}"><ele>180</ele></trkpt>`).join('');
    const gpx = `<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
  <trk><name>Feldrand Süd</name><trkseg>${pts(walk)}</trkseg></trk>
  <trk><name>Weg zum Hof</name><trkseg>${pts([
    [16.3, 48.2],
    [16.31, 48.21],
  ])}</trkseg></trk>
</gpx>`;
    const preview = await t.call('files.preview', { name: 'morning.gpx', base64: b64(gpx) });
    expect(preview.format).toBe('gpx');
    const [field, way] = preview.features;
    expect(field).toMatchObject({ name: 'Feldrand Süd', problem: null });
    expect(field!.area?.type).toBe('Polygon');
    expect(field!.repairs.length).toBeGreaterThan(0);
    expect(way).toMatchObject({ name: 'Weg zum Hof', area: null, geometryType: 'LineString' });
    expect(way!.problem).toMatch(/^a line where an area is needed/);
  });

  it('a file that cannot be read is invalid_argument naming the file and why', async () => {
    t = startBackend();
    const r = await t.raw('files.preview', { name: 'broken.kmz', base64: b64('not a zip') });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('invalid_argument');
      expect(r.error.message).toMatch(/^broken\.kmz: /);
      expect(r.error.details?.issues?.[0]?.path).toBe('file');
    }
  });

  it('refuses an oversize file and malformed arguments before reading anything', async () => {
    t = startBackend();
    const oversize = 'A'.repeat(MAX_IMPORT_BASE64_CHARS + 4);
    const big = await t.raw('files.preview', { name: 'huge.zip', base64: oversize });
    expect(big).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    if (!big.ok) {
      expect(big.error.details?.issues).toEqual([
        {
          path: 'base64',
          message: `the file is larger than ${MAX_IMPORT_FILE_BYTES / 2 ** 20} MB`,
        },
      ]);
    }
    for (const [bad, path] of [
      [{ name: 'a.kml', base64: 'PGttbD4=', extra: 1 }, ''],
      [{ name: '../../etc/passwd', base64: 'PGttbD4=' }, 'name'],
      [{ name: '', base64: 'PGttbD4=' }, 'name'],
      [{ name: 'a.kml', base64: 'PGttbD4' }, 'base64'],
      [{ name: 'a.kml', base64: [60, 107] }, 'base64'],
    ] as const) {
      const r = await t.raw('files.preview', bad);
      expect(r.ok, JSON.stringify(bad)).toBe(false);
      if (!r.ok) {
        expect(r.error.code).toBe('invalid_argument');
        if (path) expect(r.error.details?.issues?.map((i) => i.path)).toContain(path);
      }
    }
  });
});

describe('files.typedArea', () => {
  it('reads a pasted WKT or a typed box as the area a drawn one would be, checked the same way', async () => {
    t = startBackend();
    const wkt = await t.call('files.typedArea', {
      text: 'POLYGON ((14.1 46.2, 14.2 46.2, 14.2 46.3, 14.1 46.3, 14.1 46.2))',
    });
    expect(wkt).toMatchObject({ kind: 'wkt', problem: null, repairs: [] });
    expect(wkt.area?.type).toBe('Polygon');
    expect(await t.call('files.typedArea', { text: '14.1 46.2 14.2 46.3' })).toEqual({
      ...wkt,
      kind: 'box',
    });
    // Not an area: answered with the reason, not an error.
    const point = await t.call('files.typedArea', { text: 'POINT (14.1 46.2)' });
    expect(point).toMatchObject({ kind: 'wkt', area: null });
    expect(point.problem).toMatch(/point/i);
  });

  it('refuses a text over the limit and malformed arguments before reading anything', async () => {
    t = startBackend();
    // One limit: the contract's is @eo/formats' own.
    expect(MAX_TYPED_AREA_CHARS).toBe(FORMATS_MAX_TYPED_AREA_CHARS);
    for (const bad of [
      { text: 'x'.repeat(MAX_TYPED_AREA_CHARS + 1) },
      { text: 42 },
      { text: '1 2 3 4', extra: true },
    ]) {
      const r = await t.raw('files.typedArea', bad);
      expect(r).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    }
  });
});
