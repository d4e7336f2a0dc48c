/**
 * `eo search --format geojson|csv` and `eo export orders|aois` in-process, offline, on a mirror
 * synced from the real reference service: the same records the JSON output has, as features.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createEoClient } from '@eo/api-client';
import { geometryBbox, type Geometry } from '@eo/domain';
import { importFile } from '@eo/formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../db/__tests__/temp';
import { startService, type TestService } from '../../pull/__tests__/service';
import { eo } from './run-eo';
import { square } from '@eo/formats/testing';

let service: TestService;
const tmp = tempDir('cli-export');
const db = path.join(tmp.dir, 'mirror.db');

interface Collection {
  type: string;
  features: Array<{
    type: string;
    geometry: { type: string } | null;
    properties: Record<string, unknown>;
  }>;
}

/** A name a field team might give: non-ASCII, a comma, quotes and a line break. */
const FIELD_NAME = 'Çayır, "köy"\n東京 <7>';

beforeAll(async () => {
  service = await startService();
  // One more AOI, with that name and a hole, created through the service like any other.
  const client = createEoClient({ baseUrl: service.url, apiKey: service.key });
  const first = await client.pages.archiveItems('col-aurora-l2a', { limit: 1 }).next();
  const feature = (first.value as { items: Array<{ id: unknown; geometry: unknown }> }).items[0]!;
  const [w, s, e, n] = geometryBbox(feature.geometry as Geometry)!;
  const [cx, cy, d] = [(w + e) / 2, (s + n) / 2, Math.min(e - w, n - s) / 8];
  await client.createAoi({
    name: FIELD_NAME,
    description: 'with a hole',
    satellite_id: String(feature.id).startsWith('AUR2') ? 'sat-aurora-2' : 'sat-aurora-1',
    provider: 'aurora-archive',
    project_id: 'prj-demo-crops',
    geometry: {
      type: 'Polygon',
      coordinates: [
        square(cx - d, cy - d, 2 * d) as Array<[number, number]>,
        square(cx - d / 4, cy - d / 4, d / 2) as Array<[number, number]>,
      ],
    },
    item_ids: [String(feature.id)],
  });
  const synced = await eo(['sync', '--db', db, '--url', service.url, '--key', service.key]);
  expect(synced.code).toBe(0);
});
afterAll(async () => {
  await service.close();
  tmp.remove();
});

async function ok(args: string[]): Promise<string> {
  const r = await eo(args);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout;
}

const page = ['--collections', 'col-aurora-l2a', '--sort', 'datetime:desc', '--limit', '5'];

describe('eo search --format geojson|csv', () => {
  it('geojson: one feature per record of the page, in order, with footprint and STAC attributes', async () => {
    const json = JSON.parse(await ok(['search', '--db', db, ...page, '--format', 'json'])) as {
      catalogs: Array<{
        id: string;
        details: { geometry: unknown; properties: Record<string, unknown> };
      }>;
    };
    const fc = JSON.parse(
      await ok(['search', '--db', db, ...page, '--format', 'geojson']),
    ) as Collection;
    expect(fc.type).toBe('FeatureCollection');
    expect(fc.features.map((f) => f.properties.id)).toEqual(json.catalogs.map((c) => c.id));
    expect(json.catalogs).toHaveLength(5);
    fc.features.forEach((f, i) => {
      const record = json.catalogs[i]!;
      expect(f.geometry).toEqual(record.details.geometry);
      expect(f.properties).toMatchObject({
        collection: 'col-aurora-l2a',
        datetime: record.details.properties.datetime,
        'eo:cloud_cover': record.details.properties['eo:cloud_cover'],
        platform: record.details.properties.platform,
      });
    });
  });

  it('csv: a header and one CRLF row per record with its footprint as WKT; --out writes a file', async () => {
    const csv = await ok(['search', '--db', db, ...page, '--format', 'csv']);
    expect(await ok(['search', '--db', db, ...page, '--format', 'csv', '--wkt'])).toBe(csv);
    const lines = csv.split('\r\n');
    expect(lines.at(-1)).toBe('');
    const header = lines[0]!.split(',');
    expect(header.slice(0, 5)).toEqual([
      'id',
      'datetime',
      'collection',
      'eo:cloud_cover',
      'platform',
    ]);
    expect(header.at(-1)).toBe('wkt');
    expect(lines).toHaveLength(1 + 5 + 1);
    expect(lines[1]).toMatch(/^[^,]+,\d{4}-[^,]+,col-aurora-l2a,.*,"(MULTI)?POLYGON \(\(.+\)\)"$/);

    const out = path.join(tmp.dir, 'page.csv');
    expect(
      await ok(['search', '--db', db, ...page, '--format', 'csv', '--wkt', '--out', out]),
    ).toBe('');
    expect(fs.readFileSync(out, 'utf8')).toBe(csv);
    // --no-wkt: the attributes alone.
    const bare = await ok(['search', '--db', db, ...page, '--format', 'csv', '--no-wkt']);
    expect(bare.split('\r\n')[0]).toBe(lines[0]!.replace(/,wkt$/, ''));
  });

  it('usage errors: exit 2 naming the formats; --wkt and --out only with a feature format', async () => {
    const yaml = await eo(['search', '--db', db, '--format', 'yaml']);
    expect(yaml.code).toBe(2);
    expect(yaml.stderr).toContain(
      '--format must be json, table, geojson, csv, kml, kmz, shp, gpkg, got "yaml"',
    );
    const wkt = await eo(['search', '--db', db, '--format', 'json', '--wkt']);
    expect(wkt.code).toBe(2);
    expect(wkt.stderr).toContain(
      '--wkt, --no-wkt and --out go with --format geojson|csv|kml|kmz|shp|gpkg',
    );
    const geoWkt = await eo(['search', '--db', db, '--format', 'geojson', '--no-wkt']);
    expect(geoWkt.code).toBe(2);
    expect(geoWkt.stderr).toContain('--wkt and --no-wkt go with --format csv');
  });
});

describe('eo export orders|aois', () => {
  it('orders: one feature per order item, with its order id and status and its area', async () => {
    const fc = JSON.parse(
      await ok(['export', 'orders', '--db', db, '--format', 'geojson']),
    ) as Collection;
    // The service was seeded with three orders of one tasking item each.
    expect(fc.features.length).toBeGreaterThanOrEqual(3);
    const surveys = fc.features.filter((f) => String(f.properties.name).startsWith('Survey '));
    expect(surveys.map((f) => f.properties.name).sort()).toEqual([
      'Survey 0',
      'Survey 1',
      'Survey 2',
    ]);
    for (const f of surveys) {
      expect(f.properties.order_id).toEqual(expect.any(String));
      expect(f.properties.order_status).toEqual(expect.any(String));
      expect(f.properties.id).toEqual(expect.any(String));
      expect(f.geometry).toEqual({
        type: 'Polygon',
        coordinates: [
          [
            [11.3, 44.45],
            [11.425, 44.45],
            [11.425, 44.55],
            [11.3, 44.55],
            [11.3, 44.45],
          ],
        ],
      });
    }
    const csv = await ok(['export', 'orders', '--db', db, '--format', 'csv', '--wkt']);
    expect(csv.split('\r\n')).toHaveLength(fc.features.length + 2);
    expect(csv).toContain(
      '"POLYGON ((11.3 44.45, 11.425 44.45, 11.425 44.55, 11.3 44.55, 11.3 44.45))"',
    );
  });

  it('aois: one feature per AOI, to a file with --out', async () => {
    const out = path.join(tmp.dir, 'aois.geojson');
    expect(await ok(['export', 'aois', '--db', db, '--format', 'geojson', '--out', out])).toBe('');
    const fc = JSON.parse(fs.readFileSync(out, 'utf8')) as Collection;
    expect(fc.features.map((f) => f.properties.name).sort()).toEqual([
      'Field block 0',
      'Field block 1',
      FIELD_NAME,
    ]);
    const holed = fc.features.find((f) => f.properties.name === FIELD_NAME)!;
    expect((holed.geometry as unknown as { coordinates: unknown[] }).coordinates).toHaveLength(2);
    for (const f of fc.features) {
      expect(f.geometry?.type).toBe('Polygon');
      expect(f.properties).toMatchObject({
        project_id: 'prj-demo-crops',
        aoi_id: expect.any(String),
      });
    }
    expect(fs.existsSync(`${out}.partial`)).toBe(false);
  });

  it('kml: one Placemark per AOI, named, with its attributes and polygon', async () => {
    const kml = await ok(['export', 'aois', '--db', db, '--format', 'kml']);
    expect(
      kml.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2">',
      ),
    ).toBe(true);
    expect(kml.match(/<Placemark>/g)).toHaveLength(3);
    expect(kml).toContain('<name>Çayır, &quot;köy&quot;\n東京 &lt;7&gt;</name>');
    expect(kml).toContain('</outerBoundaryIs><innerBoundaryIs>');
    expect(kml).toContain('<name>Field block 0</name>');
    expect(kml).toContain('<description>mirror test</description>');
    expect(kml).toContain('<SimpleField name="project_id" type="string"/>');
    expect(kml).toContain('<SimpleData name="project_id">prj-demo-crops</SimpleData>');
    expect(kml.match(/<Polygon><outerBoundaryIs><LinearRing><coordinates>/g)).toHaveLength(3);
  });

  it('csv: the non-ASCII name with its comma, quotes and line break quoted as RFC 4180 says; the hole in the WKT', async () => {
    const csv = await ok(['export', 'aois', '--db', db, '--format', 'csv', '--wkt']);
    expect(csv).toContain(',"Çayır, ""köy""\n東京 <7>",');
    expect(csv).toMatch(/"POLYGON \(\([^)]+\), \([^)]+\)\)"\r\n/);
  });

  it('usage: --format is required; exit 2; no mirror: exit 1', async () => {
    const none = await eo(['export', 'aois', '--db', db]);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(
      'eo export aois: --format geojson, csv, kml, kmz, shp or gpkg is required\nusage: eo export aois --format geojson|csv|kml|kmz|shp|gpkg [--no-wkt] [--out FILE]\n',
    );
    const table = await eo(['export', 'orders', '--db', db, '--format', 'table']);
    expect(table.stderr).toContain(
      '--format must be geojson, csv, kml, kmz, shp or gpkg, got "table"',
    );
    const binary = await eo(['export', 'aois', '--db', db, '--format', 'gpkg']);
    expect(binary.code).toBe(2);
    expect(binary.stderr).toContain('--format gpkg writes a binary file: give --out FILE');
    const what = await eo(['export', 'deliveries', '--db', db]);
    expect(what.code).toBe(2);
    expect(what.stderr).toContain('unknown command: export deliveries');
    const missing = await eo([
      'export',
      'aois',
      '--db',
      path.join(tmp.dir, 'none.db'),
      '--format',
      'csv',
    ]);
    expect(missing.code).toBe(1);
  });
});

describe('binary formats and kml from search', () => {
  it('search --format kml writes KML (it printed the table before)', async () => {
    const kml = await ok(['search', '--db', db, '--limit', '3', '--format', 'kml']);
    expect(kml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(kml.match(/<Placemark>/g)).toHaveLength(3);
  });

  for (const format of ['kmz', 'shp', 'gpkg'] as const) {
    it(`export aois --format ${format} --out: read back by @eo/formats with every AOI and name`, async () => {
      const fc = JSON.parse(
        await ok(['export', 'aois', '--db', db, '--format', 'geojson']),
      ) as Collection;
      const out = path.join(tmp.dir, `aois.${format === 'shp' ? 'zip' : format}`);
      const r = await eo(['export', 'aois', '--db', db, '--format', format, '--out', out]);
      expect(r).toMatchObject({ code: 0, stdout: '' });
      // A Shapefile says what it cut (its 10-character field names); the others say nothing.
      if (format === 'shp') expect(r.stderr).toMatch(/^note: Shapefile field names hold 10/);
      else expect(r.stderr).toBe('');
      const back = await importFile(out, fs.readFileSync(out));
      expect(back.features.map((f) => f.name)).toEqual(
        fc.features.map((f) => String(f.properties.name).trim()),
      );
      expect(back.features.every((f) => f.problem === null)).toBe(true);
    });
  }
});
