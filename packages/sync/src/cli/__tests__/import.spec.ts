/**
 * `eo import` in-process: field files (made with @eo/formats' own writers, as another tool
 * would hand them over) previewed and queued in the outbox, then flushed to the real service;
 * all or nothing on refused features, outbox refusals and fuzzed files.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Geometry, Position } from '@eo/domain';
import { createRng } from '@eo/domain/testing';
import { exportFeatures, toShapefileZip, type ExportFeature } from '@eo/formats';
import { kmzBomb, recursiveViewGeoPackage } from '@eo/formats/testing';
import proj4 from 'proj4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../db/__tests__/temp';
import type { OutboxEntry } from '../../outbox/index';
import {
  aoiInput,
  orderInput,
  startService,
  testClient,
  type TestService,
} from '../../outbox/__tests__/service';
import { eo } from './run-eo';

let service: TestService;
const tmp = tempDir('cli-import');
let n = 0;
const freshDb = () => path.join(tmp.dir, `local-${n++}.db`);
/** The AOI fields a user gives once for the whole file (all but name and geometry). */
let aoiFields: Record<string, unknown>;
/** Two fields inside the seeded scene (AOIs must lie on their archive item). */
let fields: ExportFeature[];

function box(x: number, y: number, dx: number, dy: number): Position[] {
  return [
    [x, y],
    [x + dx, y],
    [x + dx, y + dy],
    [x, y + dy],
    [x, y],
  ];
}

beforeAll(async () => {
  service = await startService();
  const aoi = await aoiInput(testClient(service.url, service.key), 'template');
  const { name: _name, geometry, ...rest } = aoi;
  aoiFields = rest;
  const ring = (geometry as { coordinates: number[][][] }).coordinates[0]!;
  const [x0, y0] = ring[0]!;
  const [x1, y3] = [ring[1]![0]!, ring[3]![1]!];
  const [dx, dy] = [(x1 - x0!) / 3, (y3 - y0!) / 3];
  fields = [
    {
      geometry: { type: 'Polygon', coordinates: [box(x0!, y0!, dx, dy)] },
      properties: { name: 'Çayır Nord', status: 'active' },
    },
    {
      geometry: { type: 'Polygon', coordinates: [box(x0! + 2 * dx, y0!, dx, dy)] },
      properties: { name: 'Çayır Süd', status: 'pending' },
    },
  ];
});
afterAll(async () => {
  await service.close();
  tmp.remove();
});

function write(name: string, data: string | Uint8Array): string {
  const file = path.join(tmp.dir, name);
  fs.writeFileSync(file, data);
  return file;
}

async function queued(db: string): Promise<OutboxEntry[]> {
  if (!fs.existsSync(db)) return [];
  const list = await eo(['outbox', 'list', '--db', db, '--format', 'json']);
  expect(list.code).toBe(0);
  return JSON.parse(list.stdout) as OutboxEntry[];
}

describe('eo import', () => {
  it('a KMZ becomes one AOI per placemark, named by it; flushed, they are on the service', async () => {
    const db = freshDb();
    const kmz = write('fields.kmz', exportFeatures(fields, 'kmz'));
    const run = await eo([
      'import',
      kmz,
      '--db',
      db,
      '--json',
      JSON.stringify(aoiFields),
      '--format',
      'json',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as { format: string; queued: OutboxEntry[] };
    expect(out.format).toBe('kmz');
    expect(out.queued.map((e) => [e.kind, (e.input as { name: string }).name])).toEqual([
      ['aoi', 'Çayır Nord'],
      ['aoi', 'Çayır Süd'],
    ]);
    const flush = await eo([
      'outbox',
      'flush',
      '--db',
      db,
      '--url',
      service.url,
      '--key',
      service.key,
      '--format',
      'json',
    ]);
    expect(flush.code).toBe(0);
    expect((await queued(db)).map((e) => e.state)).toEqual(['sent', 'sent']);
    const { aois } = (await testClient(service.url, service.key).listAois({
      limit: 100,
    })) as unknown as {
      aois: Array<{ name: string }>;
    };
    expect(aois.map((a) => a.name)).toEqual(expect.arrayContaining(['Çayır Nord', 'Çayır Süd']));
  });

  it('a Shapefile in UTM 32N as order items: one order, an item per parcel; --merge: one item of both', async () => {
    const utm = '+proj=utm +zone=32 +datum=WGS84 +units=m +no_defs';
    const prj =
      'PROJCS["WGS_1984_UTM_Zone_32N",GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",500000.0],PARAMETER["False_Northing",0.0],PARAMETER["Central_Meridian",9.0],PARAMETER["Scale_Factor",0.9996],PARAMETER["Latitude_Of_Origin",0.0],UNIT["Meter",1.0]]';
    const forward = proj4('WGS84', utm);
    const zip = write(
      'parcels.zip',
      toShapefileZip(fields, {
        name: 'parcels',
        crs: { prj, project: (p) => forward.forward([p[0]!, p[1]!]) },
      }),
    );
    const { name: _n, geometry: _g, ...item } = orderInput('x').order_items[0]!;
    const fieldsJson = JSON.stringify(item);
    const db = freshDb();
    const each = await eo([
      'import',
      zip,
      '--as',
      'order-items',
      '--db',
      db,
      '--json',
      fieldsJson,
      '--format',
      'json',
    ]);
    expect(each.code).toBe(0);
    const [order] = (JSON.parse(each.stdout) as { queued: OutboxEntry[] }).queued;
    const items = (
      order!.input as {
        order_items: Array<{ name: string; geometry: { features: Array<{ geometry: Geometry }> } }>;
      }
    ).order_items;
    expect(items.map((i) => i.name)).toEqual(['Çayır Nord', 'Çayır Süd']);
    const merged = await eo([
      'import',
      zip,
      '--as',
      'order-items',
      '--merge',
      '--db',
      db,
      '--json',
      JSON.stringify({ ...item, name: 'Both parcels' }),
      '--format',
      'json',
    ]);
    expect(merged.code).toBe(0);
    const [one] = (JSON.parse(merged.stdout) as { queued: OutboxEntry[] }).queued;
    const mergedItems = (
      one!.input as {
        order_items: Array<{ name: string; geometry: { features: unknown[] } }>;
      }
    ).order_items;
    expect(mergedItems.map((i) => [i.name, i.geometry.features.length])).toEqual([
      ['Both parcels', 2],
    ]);
  });

  it('a feature that cannot be an area: exit 1, every refused feature named, nothing queued', async () => {
    const db = freshDb();
    const mixed: ExportFeature[] = [
      ...fields,
      { geometry: { type: 'Point', coordinates: [11, 44] }, properties: { name: 'Brunnen' } },
      {
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [2, 2],
              [2, 0],
              [0, 2],
              [0, 0],
            ],
          ],
        },
        properties: { name: 'Acht' },
      },
    ];
    const file = write('mixed.geojson', exportFeatures(mixed, 'geojson'));
    const run = await eo(['import', file, '--db', db, '--json', JSON.stringify(aoiFields)]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `eo import: 2 of 4 features cannot be areas; nothing queued (--pick takes some)\n` +
        `  ${file}: feature 3 (Brunnen): a point where an area is needed\n` +
        `  ${file}: feature 4 (Acht): outer ring: the ring crosses or touches itself\n`,
    );
    expect(await queued(db)).toEqual([]);
  });

  it('--pick takes a GPX walk without its waypoint (which alone refuses the file)', async () => {
    const db = freshDb();
    const ring = (fields[0]!.geometry as { coordinates: number[][][] }).coordinates[0]!;
    // Walked back to within a metre of the gate.
    const pts = [...ring.slice(0, -1), [ring[0]![0]! - 0.00001, ring[0]![1]! + 0.00001]]
      .map(([lon, lat]) => `<trkpt lat="${lat}" lon="${lon}"><ele>120</ele></trkpt>`)
      .join('');
    const [lon0, lat0] = ring[0]!;
    const file = write(
      'walk.gpx',
      `<?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><wpt lat="${lat0}" lon="${lon0}"><name>Tor</name></wpt><trk><name>Runde Süd</name><trkseg>${pts}</trkseg></trk></gpx>`,
    );
    const args = ['import', file, '--db', db, '--json', JSON.stringify(aoiFields)];
    const all = await eo(args);
    expect(all.code).toBe(1);
    expect(all.stderr).toBe(
      `eo import: 1 of 2 features cannot be areas; nothing queued (--pick takes some)\n  ${file}: feature 2 (Tor): a point where an area is needed\n`,
    );
    const bad = await eo([...args, '--pick', '1-3']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--pick: "1-3" is not a feature number or range within 1..2');
    const picked = await eo([...args, '--pick', '1', '--format', 'json']);
    expect(picked.stderr).toBe('');
    const { queued: entries } = JSON.parse(picked.stdout) as { queued: OutboxEntry[] };
    expect(entries.map((e) => (e.input as { name: string }).name)).toEqual(['Runde Süd']);
    expect(await queued(db)).toHaveLength(1);
  });

  it('an input the schema refuses (after the file was fine): exit 2 naming the feature, nothing queued', async () => {
    const db = freshDb();
    const file = write('ok.kml', exportFeatures(fields, 'kml'));
    const run = await eo([
      'import',
      file,
      '--db',
      db,
      '--json',
      JSON.stringify({ ...aoiFields, item_ids: [] }),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^eo import: Invalid aoi; nothing queued\n {2}feature 1 \(Çayır Nord\)\.item_ids: /,
    );
    expect(await queued(db)).toEqual([]);
  });

  it('--dry-run previews (table) and queues nothing; --name-field picks the name', async () => {
    const db = freshDb();
    const csv = write(
      'plots.csv',
      exportFeatures(
        fields.map((f, i) => ({ ...f, properties: { plot: `P-${i + 1}`, ...f.properties } })),
        'csv',
        { wkt: true },
      ),
    );
    const run = await eo(['import', csv, '--dry-run', '--name-field', 'plot', '--db', db], {
      tty: { stdout: true },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^#\s+NAME\s+GEOMETRY\s+REPAIRED\s+PROBLEM\n1\s+P-1\s+Polygon\n2\s+P-2\s+Polygon\n/,
    );
    expect(run.stdout).toContain('2 features, csv; dry run: nothing queued');
    expect(fs.existsSync(db)).toBe(false);
  });

  it('hostile files (an endless GeoPackage view, a KMZ bomb): a clear refusal, exit 1, nothing queued', async () => {
    const db = freshDb();
    for (const [name, bytes, why] of [
      [
        'endless.gpkg',
        recursiveViewGeoPackage(),
        /"plots" is a view: GeoPackages are read as stored tables only/,
      ],
      ['bomb.kmz', kmzBomb(1024), /a zip bomb/],
    ] as const) {
      const run = await eo(['import', write(name, bytes), '--dry-run', '--db', db]);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toMatch(why);
      expect(run.stderr).toContain('nothing queued');
      expect(run.stderr).not.toContain('unexpected error');
    }
    expect(fs.existsSync(db)).toBe(false);
  });

  // 25 imports, each in a thread of its own loaded from sources (seconds each on a busy machine).
  it(
    'fuzzed files (seeded, bounded): each import queues every feature or nothing',
    { timeout: 300_000 },
    async () => {
      const db = freshDb();
      const valid = exportFeatures(fields, 'kmz') as Uint8Array;
      const rng = createRng(0x1badcafe);
      const rnd = () => rng.next();
      let before = 0;
      for (let i = 0; i < 25; i++) {
        const bytes = Uint8Array.from(valid);
        for (let k = 0; k < 3; k++)
          bytes[Math.floor(rnd() * bytes.length)] = Math.floor(rnd() * 256);
        const file = write(
          `fuzz-${i}.kmz`,
          i % 2 ? bytes.subarray(0, Math.floor(rnd() * bytes.length)) : bytes,
        );
        const run = await eo(['import', file, '--db', db, '--json', JSON.stringify(aoiFields)]);
        const after = (await queued(db)).length;
        expect(run.stderr).not.toContain('unexpected error');
        if (run.code === 0) expect(after - before).toBe(2);
        else expect(after).toBe(before);
        before = after;
      }
    },
  );
});
