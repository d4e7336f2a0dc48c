/**
 * GDAL judges the site file `takeOffline` stores: `gdalinfo` (CRS, grid, bands, nodata,
 * overviews), GDAL's COG validator, `gdallocationinfo` at 20 seeded points against our reader,
 * and the window against the same window cut from the whole scene COG, pixel for pixel (read by
 * GDAL from both files, and by our reader).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createEoClient } from '@eo/api-client';
import { bufferSource, lonLatToMap, mapToPixel, openGeoTiff, type GeoTransform } from '@eo/geotiff';
import { nodeCompression } from '@eo/geotiff/node';
import { gdalInfo, gdalLocationValues, gdalPixels, validateCog } from '@eo/geotiff/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMirrorDatabase } from '../../db/open';
import { tempDir } from '../../db/__tests__/temp';
import type { OfflineRaster } from '../rasters';
import { takeOffline } from '../take-offline';
import { SITE_SCENE, startOfflineService, type OfflineService } from './service';

const tmp = tempDir('window-gdal');
let svc: OfflineService;
let raster: OfflineRaster;
/** The whole scene COG, fetched in one piece for the comparison. */
const wholeFile = path.join(tmp.dir, 'scene.tif');

/** A square of about 900 m x 900 m around the scene's centre: it meets its four tiles. */
const AREA = {
  type: 'Polygon' as const,
  coordinates: [
    [
      [SITE_SCENE.lon - 0.0055, SITE_SCENE.lat - 0.004],
      [SITE_SCENE.lon + 0.0055, SITE_SCENE.lat - 0.004],
      [SITE_SCENE.lon + 0.0055, SITE_SCENE.lat + 0.004],
      [SITE_SCENE.lon - 0.0055, SITE_SCENE.lat + 0.004],
      [SITE_SCENE.lon - 0.0055, SITE_SCENE.lat - 0.004],
    ] as [number, number][],
  ],
};

/** Deterministic [0, 1) numbers (a small LCG): the points are the same on every run. */
function seeded(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

beforeAll(async () => {
  svc = await startOfflineService();
  const db = openMirrorDatabase(path.join(tmp.dir, 'mirror.db'));
  const client = createEoClient({ baseUrl: svc.relay.url, apiKey: svc.key });
  try {
    raster = await takeOffline(
      db,
      {
        scene: { kind: 'catalog', id: svc.catalogIds[0]! },
        area: { geometry: AREA, label: 'square' },
        resolution: 'native',
      },
      { client, serviceUrl: svc.relay.url, budgetBytes: 1e9, pollMs: 5, maxPollMs: 50 },
    );
    // The whole scene COG, through the same download's signed URL.
    const d = await client.downloads.getForCatalog(raster.downloadId!);
    const res = await fetch(new URL(d!.signedUrl!, svc.relay.url));
    expect(res.status).toBe(200);
    fs.writeFileSync(wholeFile, Buffer.from(await res.arrayBuffer()));
  } finally {
    db.close();
  }
}, 240_000);
afterAll(async () => {
  await svc?.close();
  tmp.remove();
});

// GDAL reads whole files in child processes: generous bounds for a busy machine.
describe('the stored site file, judged by GDAL', { timeout: 180_000 }, () => {
  it("opens with the scene's CRS, its grid, its bands' names, nodata 0 and overviews; a valid COG", async () => {
    const info = await gdalInfo(raster.file!);
    // The CRS is the record's (proj:epsg, or proj:code in STAC's projection 2.0), as served.
    const record = svc.server.app.ctx.sqlite
      .prepare('SELECT record_json FROM catalog_records WHERE id = ?')
      .pluck()
      .get(svc.catalogIds[0]) as string;
    const { details } = JSON.parse(record) as { details: { properties: Record<string, unknown> } };
    const { 'proj:epsg': number, 'proj:code': code } = details.properties;
    const epsg = typeof number === 'number' ? number : Number(String(code).replace(/^EPSG:/, ''));
    expect(epsg).toBe(32632);
    expect(raster.epsg).toBe(epsg);
    expect(info.stac?.['proj:epsg']).toBe(epsg);
    expect(info.size).toEqual([raster.width, raster.height]);
    const [minX, minY, maxX, maxY] = raster.bounds!;
    const gt = info.geoTransform! as unknown as GeoTransform;
    expect(gt[0]).toBeCloseTo(minX, 6);
    expect(gt[3]).toBeCloseTo(maxY, 6);
    expect(gt[0] + gt[1] * raster.width!).toBeCloseTo(maxX, 6);
    expect(gt[3] + gt[5] * raster.height!).toBeCloseTo(minY, 6);
    expect(gt[1]).toBe(3);
    expect(info.bands.map((b) => b.description)).toEqual([...raster.bands]);
    for (const b of info.bands) {
      expect(b.noDataValue).toBe(0);
      expect(b.type).toBe('UInt16');
      expect(b.scale).toBeCloseTo(0.0001, 10);
      expect(b.overviews?.length).toBeGreaterThan(0);
    }
    // The scene the record was cut from, as the service's COG names it.
    expect(info.metadata['']).toMatchObject({ SCENE_ID: SITE_SCENE.id, LEVEL: '0' });
    // Where it came from, without the signature.
    expect(info.metadata['']!.SOURCE_URL).toMatch(/\/rasters\/catalog\/.*\/scene\.tif$/);
    const cog = await validateCog(raster.file!);
    expect(cog.valid, cog.output).toBe(true);
  });

  it('equals the same window cut from the whole scene COG, pixel for pixel', async () => {
    const whole = await gdalInfo(wholeFile);
    const gt = whole.geoTransform! as unknown as GeoTransform;
    const [x, y] = mapToPixel(gt, raster.bounds![0], raster.bounds![3]).map(Math.round) as [
      number,
      number,
    ];
    expect(Math.abs(x % 512)).toBe(0);
    expect(Math.abs(y % 512)).toBe(0);
    const srcwin = [x, y, raster.width!, raster.height!] as const;
    const cut = await gdalPixels(wholeFile, { srcwin });
    const stored = await gdalPixels(raster.file!);
    expect(stored.width).toBe(cut.width);
    expect(stored.bands.length).toBe(cut.bands.length);
    stored.bands.forEach((band, b) => {
      let differ = 0;
      for (let i = 0; i < band.length; i++) if (band[i] !== cut.bands[b]![i]) differ++;
      expect(differ, `band ${b}: pixels that differ`).toBe(0);
    });
    // Our reader agrees with GDAL on both files.
    const ours = await openGeoTiff(bufferSource(fs.readFileSync(raster.file!)), {
      compression: nodeCompression,
    });
    const mine = await ours.readWindow(0, {
      x: 0,
      y: 0,
      width: raster.width!,
      height: raster.height!,
    });
    mine.bands.forEach((band, b) => expect(Array.from(band)).toEqual(stored.bands[b]));
    // Not a window of nothing: the site has ground in it.
    expect(stored.bands[0]!.some((v) => v > 0)).toBe(true);
  });

  it('gdallocationinfo at 20 seeded points equals our reader', async () => {
    const tiff = await openGeoTiff(bufferSource(fs.readFileSync(raster.file!)), {
      compression: nodeCompression,
    });
    const [minX, minY, maxX, maxY] = raster.bounds!;
    const next = seeded(20261128);
    const points = Array.from(
      { length: 20 },
      () => [minX + next() * (maxX - minX), minY + next() * (maxY - minY)] as const,
    );
    const gdal = await gdalLocationValues(raster.file!, points);
    const ours = await Promise.all(points.map(([px, py]) => tiff.valueAt(px, py)));
    expect(ours).toEqual(gdal);
  });

  it("gdallocationinfo inside the site: the stored window gives the service's scene COG values", async () => {
    const next = seeded(23);
    const ring = AREA.coordinates[0]!;
    const [w, s0] = ring[0]!;
    const [e, n0] = ring[2]!;
    const points = Array.from({ length: 12 }, () =>
      lonLatToMap(raster.epsg!, w + next() * (e - w), s0 + next() * (n0 - s0)),
    );
    const stored = await gdalLocationValues(raster.file!, points);
    const scene = await gdalLocationValues(wholeFile, points);
    expect(stored).toEqual(scene);
    expect(stored.every((v) => v.length === raster.bands.length)).toBe(true);
    expect(stored.some((v) => v.some((b) => b > 0))).toBe(true);
  });
});
