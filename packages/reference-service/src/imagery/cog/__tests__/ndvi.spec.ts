/**
 * The COG's reflectance tells vegetation from water, as the quicklook shows them: NDVI
 * computed from the served bands over pixels the ground model calls vegetation is high, over
 * its water low. The place is found by scanning the model (deterministic), the pixels are
 * read back from the file with @eo/geotiff.
 */
import fs from 'node:fs';
import { fromUtm, utmOfEpsg } from '@eo/domain';
import { openGeoTiff } from '@eo/geotiff';
import { fileSource, nodeCompression } from '@eo/geotiff/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, type TestApp } from '../../../testing/harness';
import { FIELD_COUNT, groundFrom, landFields, seasonDay, sphereKm } from '../../land';
import { insertSquareScene, type SquareScene } from '../../../testing/scenes';

const DATETIME = '2024-06-25T10:30:00Z';
const sphere = new Float64Array(3);
const fields = new Float32Array(FIELD_COUNT);
const spectrum = new Float32Array(6);

/** The ground's cover at a place on the scene's date: 'water', 'vegetation' or 'other'. */
function cover(lon: number, lat: number): 'water' | 'vegetation' | 'other' {
  sphereKm(lon, lat, sphere, 0);
  landFields(sphere, fields, 0);
  groundFrom(fields, 0, lon, lat, seasonDay(Date.parse(DATETIME), lat), Math.abs(lat), spectrum, 0);
  const [red, nir] = [spectrum[2]!, spectrum[3]!];
  if (nir < 0.06) return 'water'; // lakes and rivers
  if ((nir - red) / (nir + red) > 0.5) return 'vegetation'; // crops, forest
  return 'other';
}

/** The first place (on a fixed scan) whose 2 km square has both water and vegetation. */
function mixedPlace(): { lon: number; lat: number } {
  for (let lat = 47; lat < 56; lat += 0.31)
    for (let lon = 6; lon < 24; lon += 0.43) {
      const n = { water: 0, vegetation: 0, other: 0 };
      for (let i = 0; i < 20; i++)
        for (let j = 0; j < 20; j++) n[cover(lon + (i - 10) * 0.0014, lat + (j - 10) * 0.0009)]++;
      if (n.water >= 30 && n.vegetation >= 80) return { lon, lat };
    }
  throw new Error('no place with water and vegetation on the scan');
}

let t: TestApp;
let scene: SquareScene;
beforeAll(async () => {
  t = await createTestApp({ scenes: 5 });
  scene = { id: 'TEST_NDVI', ...mixedPlace(), km: 2, datetime: DATETIME, cloudCover: 0 };
  insertSquareScene(t.app.ctx.sqlite, scene);
});
afterAll(async () => t.close());

describe('reflectance of a scene COG', () => {
  it('gives NDVI over vegetation well above NDVI over water', async () => {
    const cogs = t.app.ctx.imagery.cogs;
    cogs.ensure(DEMO.orgId, { source: 'archive', id: scene.id });
    await cogs.settled();
    const found = cogs.serve({ source: 'archive', id: scene.id }, '');
    if (!found || !('file' in found)) throw new Error('not rendered');
    const fh = await fs.promises.open(found.file.path, 'r');
    try {
      const tiff = await openGeoTiff(await fileSource(fh), { compression: nodeCompression });
      const red = tiff.bandNames.indexOf('B04');
      const nir = tiff.bandNames.indexOf('B08');
      const { width, height, bands } = await tiff.readWindow(
        0,
        { x: 0, y: 0, width: tiff.width, height: tiff.height },
        [red, nir],
      );
      const gt = tiff.geoTransform!;
      const zone = utmOfEpsg(tiff.epsg!)!;
      const ndvi = { water: [] as number[], vegetation: [] as number[] };
      for (let y = 2; y < height; y += 5)
        for (let x = 2; x < width; x += 5) {
          const r = bands[0]![y * width + x]!;
          const n = bands[1]![y * width + x]!;
          if (r === 0 || n === 0) continue; // outside the footprint
          const [lon, lat] = fromUtm(
            gt[0] + (x + 0.5) * gt[1],
            gt[3] + (y + 0.5) * gt[5],
            zone.zone,
            zone.south,
          );
          const c = cover(lon, lat);
          if (c !== 'other') ndvi[c].push((n - r) / (n + r));
        }
      const mean = (a: number[]) => a.reduce((s, v) => s + v, 0) / a.length;
      expect(ndvi.water.length).toBeGreaterThan(20);
      expect(ndvi.vegetation.length).toBeGreaterThan(50);
      expect(mean(ndvi.vegetation)).toBeGreaterThan(0.5);
      expect(mean(ndvi.water)).toBeLessThan(0.05);
      expect(mean(ndvi.vegetation) - mean(ndvi.water)).toBeGreaterThan(0.5);
      expect(tiff.metadata.bands[red]!.scale).toBe(0.0001);
    } finally {
      await fh.close();
    }
  });
});
