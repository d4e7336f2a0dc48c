/**
 * `eo download` and the offline rasters in `eo status`, in-process against the real service:
 * the scene found in the mirror, the area from a field file, an AOI or a buffer, progress lines
 * (the plan said before the tiles), `--out`, and usage errors that name the flag.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../db/__tests__/temp';
import {
  SITE_SCENE,
  startOfflineService,
  type OfflineService,
} from '../../offline/__tests__/service';
import type { OfflineRaster } from '../../offline/index';
import { eo } from './run-eo';

const tmp = tempDir('cli-download');
let svc: OfflineService;
let env: Record<string, string>;
const siteFile = path.join(tmp.dir, 'site.geojson');

beforeAll(async () => {
  svc = await startOfflineService();
  env = { EO_URL: svc.relay.url, EO_API_KEY: svc.key, EO_DB: path.join(tmp.dir, 'mirror.db') };
  fs.writeFileSync(
    siteFile,
    JSON.stringify({
      type: 'Feature',
      properties: { name: 'North plot' },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [SITE_SCENE.lon - 0.003, SITE_SCENE.lat - 0.002],
            [SITE_SCENE.lon + 0.003, SITE_SCENE.lat - 0.002],
            [SITE_SCENE.lon + 0.003, SITE_SCENE.lat + 0.002],
            [SITE_SCENE.lon - 0.003, SITE_SCENE.lat + 0.002],
            [SITE_SCENE.lon - 0.003, SITE_SCENE.lat - 0.002],
          ],
        ],
      },
    }),
  );
  const sync = await eo(['sync', '--resources', 'catalogs', '--progress', 'off'], { env });
  expect(sync.code, sync.stderr).toBe(0);
});
afterAll(async () => {
  await svc?.close();
  tmp.remove();
});

describe('eo download', () => {
  it('takes a mirrored scene offline over a field file, says how, writes --out; eo status lists it', async () => {
    const out = path.join(tmp.dir, 'site.out');
    const r = await eo(
      [
        'download',
        svc.catalogIds[0]!,
        '--area',
        siteFile,
        '--resolution',
        'native',
        '--out',
        out,
        '--progress',
        'lines',
        '--format',
        'json',
      ],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    const raster = JSON.parse(r.stdout) as OfflineRaster;
    expect(raster).toMatchObject({
      state: 'stored',
      mode: 'window',
      area: { label: 'site.geojson' },
      scene: { kind: 'catalog', ref: svc.catalogIds[0] },
    });
    const lines = r.stderr.split('\n');
    expect(lines[0]).toMatch(/^download: asking the service \(off_/);
    expect(r.stderr).toMatch(
      /download: level 0 \(3 m\), \d+ x \d+ px, \d+ tiles, \d+\.\d MB to fetch\n/,
    );
    expect(r.stderr).toMatch(/download: tiles (\d+)\/\1, /);
    expect(r.stderr).not.toMatch(/taking it whole/);
    expect(r.stderr).toMatch(/download: stored off_/);
    expect(r.stderr).toContain(`eo download: wrote ${out}`);
    expect(fs.readFileSync(out).equals(fs.readFileSync(raster.file!))).toBe(true);

    const status = await eo(['status', '--format', 'json'], { env });
    const listed = (JSON.parse(status.stdout) as { rasters: OfflineRaster[] }).rasters;
    expect(listed.map((x) => [x.id, x.bytes, x.state])).toEqual([
      [raster.id, raster.bytes, 'stored'],
    ]);
    expect((JSON.parse(status.stdout) as { imagery: { raster: number } }).imagery.raster).toBe(1);
    const table = await eo(['status', '--format', 'table'], { env });
    expect(JSON.parse(status.stdout).rasterTotals).toEqual({
      stored: 1,
      unfinished: 0,
      bytes: raster.bytes,
      budgetBytes: 1024 ** 3,
    });
    expect(table.stdout).toMatch(
      /offline rasters: 1 stored, \d+\.\d MB \(imagery budget 1074 MB\)\nRASTER +SCENE +AREA/,
    );
    expect(table.stdout).toContain(raster.id);
    expect(table.stdout).toMatch(new RegExp(`${raster.id} .* stored`));
  });

  it('a buffer around a position, without progress, says nothing but the file', async () => {
    const r = await eo(
      [
        'download',
        svc.catalogIds[1]!,
        '--around',
        `${SITE_SCENE.lon},${SITE_SCENE.lat}`,
        '--radius',
        '300',
        '--progress',
        'off',
        '--format',
        'json',
      ],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      mode: 'window',
      area: { label: '300 m around 11.35000, 44.50000' },
    });
    expect(r.stderr).toBe('');
  });

  it('refuses bad usage before asking anything, naming the flag', async () => {
    const cases: Array<[string[], RegExp]> = [
      [
        ['download', svc.catalogIds[0]!, '--area', siteFile, '--around', '1,2'],
        /give one area: --area or --around/,
      ],
      [
        ['download', svc.catalogIds[0]!, '--area', siteFile, '--resolution', 'fine'],
        /--resolution must be native or metres/,
      ],
      [
        ['download', 'cat_unknown', '--area', siteFile],
        /not a catalog record, order item or AOI asset in the mirror/,
      ],
      [['download', svc.catalogIds[0]!], /no area: give --area FILE, --aoi ID or --around LON,LAT/],
      [
        ['download', svc.catalogIds[0]!, '--area', path.join(tmp.dir, 'none.geojson')],
        /--area: cannot read/,
      ],
      [
        ['download', svc.catalogIds[0]!, '--around', '11,44', '--radius', '0'],
        /--radius must be an integer/,
      ],
    ];
    svc.relay.requests.length = 0;
    for (const [args, message] of cases) {
      const r = await eo(args, { env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    expect(svc.relay.requests).toEqual([]);
  });
});
