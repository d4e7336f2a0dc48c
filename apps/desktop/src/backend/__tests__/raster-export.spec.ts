/**
 * `rasters.export`: a stored window as a GeoTIFF and an index over it as a float32 GeoTIFF,
 * judged by GDAL (gdalinfo: CRS, geotransform, band descriptions, nodata; gdallocationinfo:
 * values at ground points equal to the stored pixels and to the index as the app computes it,
 * `shared/raster-index.ts`, what the map and the pixel inspector run), and browser mode's
 * download route that sends them.
 */
import { lonLatToMap } from '@eo/geotiff';
import { gdalInfo, gdalLocationValues, validateCog } from '@eo/geotiff/testing';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserMode, type BrowserModeServer } from '../../browser-mode/server';
import type { FromBackend, PortLike, ToBackend } from '../../main/backend-protocol';
import { createBackendHost } from '../../main/backend-host';
import { serveBackend } from '../../main/backend-serve';
import { withRasterExportSaving } from '../../main/save-raster-export';
import { indexOfPixel, kernelOf } from '../../shared/raster-index';
import { exportFileName, slug } from '../raster-export';
import { memorySecrets } from '../secrets';
import { startBackend, tempDir, type TestBackend } from './harness';
import { windowSource, writeSiteWindow, type SiteWindow } from './site-window';

const NDVI = { name: 'NDVI', expression: '(NIR - RED) / (NIR + RED)', bandMap: [3, 2] };
/** Undefined everywhere (0 / 0): every pixel is nodata. */
const NOTHING = { name: 'Nothing', expression: '(NIR - NIR) / (RED - RED)', bandMap: [3, 2] };
const SCALES = Array.from({ length: 4 }, () => ({ scale: 0.0001, offset: 0 }));

let t: TestBackend;
let server: BrowserModeServer;
let dir: string;
let site: SiteWindow;
const source = windowSource();

beforeAll(async () => {
  dir = tempDir('eo-raster-export-');
  site = await writeSiteWindow(path.join(dir, 'site.tif'), { width: 1100, height: 700 });
  source.add('r-1', site, 'Field 7 (north)');
  t = startBackend({ offlineRasters: source });
  const rendererDir = path.join(dir, 'renderer');
  fs.mkdirSync(rendererDir);
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html>');
  server = await startBrowserMode({ backend: t.backend, rendererDir, token: 'tok-export' });
});
afterAll(async () => {
  await server?.close();
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Ground points in the raster's CRS (pixel centres), one in each cover and a few more. */
function points(): { col: number; row: number; xy: [number, number] }[] {
  const picks: [number, number][] = [
    ...Object.values(site.places).map(([c, r]) => [c, r] as [number, number]),
    [0, 0],
    [site.width - 1, site.height - 1],
    [517, 300],
  ];
  return picks.map(([col, row]) => {
    const [lon, lat] = site.lonLatOf(col, row);
    const [x, y] = lonLatToMap(site.epsg, lon, lat);
    return { col, row, xy: [x, y] };
  });
}

async function downloaded(exportId: string): Promise<Buffer> {
  const res = await fetch(`${server.url}/api/raster-exports/${exportId}?token=tok-export`);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

describe('rasters.export', () => {
  it('the window: the stored COG, named for the site and date, in its place for GDAL', async () => {
    const out = await t.call('rasters.export', { id: 'r-1', what: 'window' });
    expect(out).toMatchObject({
      fileName: 'field-7-north-2024-06-12.tif',
      mediaType: 'image/tiff',
      bytes: site.bytes,
    });
    const file = t.backend.rasterExportFile(out.exportId)!;
    expect(file).toEqual({ file: site.file, fileName: out.fileName, bytes: site.bytes });
    const info = await gdalInfo(file.file);
    expect(info.size).toEqual([1100, 700]);
    expect(info.geoTransform).toEqual([...site.geoTransform]);
    expect(info.stac?.['proj:epsg']).toBe(32632);
    expect(info.bands.map((b) => b.description)).toEqual(['B02', 'B03', 'B04', 'B08']);
    expect(info.bands.every((b) => b.noDataValue === 0 && b.scale === 0.0001)).toBe(true);
    const ps = points();
    const values = await gdalLocationValues(
      file.file,
      ps.map((p) => p.xy),
    );
    ps.forEach((p, i) => expect(values[i]).toEqual(site.valuesAt(p.col, p.row)));
  });

  it('an index: float32 on the same grid, nodata NaN, the values the app computes', async () => {
    const out = await t.call('rasters.export', { id: 'r-1', what: 'index', index: NDVI });
    expect(out.fileName).toBe('field-7-north-2024-06-12-ndvi.tif');
    const file = t.backend.rasterExportFile(out.exportId)!.file;
    expect(fs.statSync(file).size).toBe(out.bytes);
    expect((fs.statSync(file).mode & 0o777).toString(8)).toBe('600');
    const info = await gdalInfo(file);
    expect(info.size).toEqual([1100, 700]);
    expect(info.geoTransform).toEqual([...site.geoTransform]);
    expect(info.coordinateSystem?.wkt).toMatch(/UTM zone 32N/);
    expect(info.bands).toHaveLength(1);
    expect(info.bands[0]).toMatchObject({ type: 'Float32', description: 'NDVI' });
    // JSON has no NaN: gdalinfo writes it as a string.
    expect(String(info.bands[0]!.noDataValue)).toMatch(/^nan$/i);
    expect(info.bands[0]!.overviews?.map((o) => o.size)).toEqual([
      [550, 350],
      [275, 175],
    ]);
    expect(info.metadata['']).toMatchObject({
      INDEX_NAME: 'NDVI',
      INDEX_EXPRESSION: NDVI.expression,
      INDEX_BANDS: 'NIR=B08,RED=B04',
      SCENE_ID: site.sceneId,
    });
    expect((await validateCog(file)).valid).toBe(true);

    const kernel = kernelOf(NDVI.expression);
    const ps = points();
    const values = await gdalLocationValues(
      file,
      ps.map((p) => p.xy),
    );
    ps.forEach((p, i) => {
      const app = indexOfPixel(kernel, site.valuesAt(p.col, p.row), NDVI.bandMap, SCALES, 0)[0]!;
      // float32 as GDAL prints it (its shortest round trip): equal to 7 significant digits.
      expect(values[i]![0]).toBeCloseTo(app, 6);
    });
    const veg = values[Object.keys(site.places).indexOf('vegetation')]![0]!;
    const water = values[Object.keys(site.places).indexOf('water')]![0]!;
    expect(veg).toBeGreaterThan(0.7);
    expect(water).toBeLessThan(0);

    // Browser mode's download route sends the same bytes, as an attachment.
    const res = await fetch(`${server.url}/api/raster-exports/${out.exportId}?token=tok-export`);
    expect(res.headers.get('content-disposition')).toBe(
      'attachment; filename="field-7-north-2024-06-12-ndvi.tif"',
    );
    expect(Buffer.from(await res.arrayBuffer()).equals(fs.readFileSync(file))).toBe(true);
  });

  it('where the index is undefined, GDAL reads nodata (NaN), and the tiles are sparse', async () => {
    const out = await t.call('rasters.export', { id: 'r-1', what: 'index', index: NOTHING });
    const file = t.backend.rasterExportFile(out.exportId)!.file;
    const values = await gdalLocationValues(
      file,
      points().map((p) => p.xy),
    );
    expect(values.every(([v]) => Number.isNaN(v))).toBe(true);
    // Header only: no tile has a defined value.
    expect(out.bytes).toBeLessThan(4096);
  });

  it('refuses an unknown raster, a bad expression and a band map that does not fit', async () => {
    await expect(t.call('rasters.export', { id: 'r-none', what: 'window' })).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    for (const index of [
      { ...NDVI, expression: '(NIR - ' },
      { ...NDVI, bandMap: [3] },
      { ...NDVI, bandMap: [3, 9] },
    ])
      await expect(
        t.call('rasters.export', { id: 'r-1', what: 'index', index }),
      ).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(
      t.call('rasters.export', { id: 'r-1', what: 'index', index: { ...NDVI, bandMap: [] } }),
    ).rejects.toMatchObject({ code: 'invalid_argument' });
  });

  it('keeps the last few index files; the download route refuses other ids and no token', async () => {
    const first = await t.call('rasters.export', { id: 'r-1', what: 'index', index: NDVI });
    const firstFile = t.backend.rasterExportFile(first.exportId)!.file;
    for (let i = 0; i < 4; i++)
      await t.call('rasters.export', { id: 'r-1', what: 'index', index: NDVI });
    expect(t.backend.rasterExportFile(first.exportId)).toBeNull();
    expect(fs.existsSync(firstFile)).toBe(false);
    expect(fs.existsSync(site.file)).toBe(true);
    const gone = await fetch(`${server.url}/api/raster-exports/${first.exportId}?token=tok-export`);
    expect(gone.status).toBe(404);
    const stranger = await fetch(`${server.url}/api/raster-exports/..%2Fsite.tif?token=tok-export`);
    expect(stranger.status).toBe(404);
    const window = await t.call('rasters.export', { id: 'r-1', what: 'window' });
    const noToken = await fetch(`${server.url}/api/raster-exports/${window.exportId}`);
    expect(noToken.status).toBe(401);
    expect((await downloaded(window.exportId)).equals(fs.readFileSync(site.file))).toBe(true);
  });

  it('Electron: main asks where and copies the file there; cancelled or failed, it says so', async () => {
    const toBackend: Array<(m: ToBackend) => void> = [];
    const toMain: Array<(m: FromBackend) => void> = [];
    const mainSide: PortLike<FromBackend, ToBackend> = {
      postMessage: (m) => setImmediate(() => toBackend.forEach((l) => l(structuredClone(m)))),
      onMessage: (l) => (toMain.push(l), () => undefined),
    };
    const backendSide: PortLike<ToBackend, FromBackend> = {
      postMessage: (m) => setImmediate(() => toMain.forEach((l) => l(structuredClone(m)))),
      onMessage: (l) => (toBackend.push(l), () => undefined),
    };
    serveBackend(backendSide, async () => ({
      backend: t.backend,
      embedded: null,
      close: async () => undefined,
    }));
    const host = createBackendHost(mainSide, memorySecrets());
    await host.init({ dataDir: t.dataDir, version: 'test' });
    const target = path.join(dir, 'saved', 'ndvi.tif');
    fs.mkdirSync(path.dirname(target));
    const dialogs: { defaultPath: string; filters: unknown }[] = [];
    let answer: { canceled: boolean; filePath?: string } = { canceled: false, filePath: target };
    const call = withRasterExportSaving((m, i) => host.call(m, i), {
      showSaveDialog: async (o) => (dialogs.push(o), answer),
      defaultDir: () => '/home/f/Downloads',
      exportFile: (id) => host.rasterExportFile(id),
      copyFile: (from, to) => fs.promises.copyFile(from, to),
    });

    const saved = await call('rasters.export', { id: 'r-1', what: 'index', index: NDVI });
    if (!saved.ok) throw new Error(saved.error.message);
    expect(saved.value).toMatchObject({
      savedTo: target,
      fileName: 'field-7-north-2024-06-12-ndvi.tif',
    });
    expect(dialogs[0]).toEqual({
      title: 'Save the GeoTIFF',
      defaultPath: '/home/f/Downloads/field-7-north-2024-06-12-ndvi.tif',
      filters: [{ name: 'GeoTIFF', extensions: ['tif', 'tiff'] }],
    });
    const [ndvi] = await gdalLocationValues(target, [points()[0]!.xy]);
    expect(ndvi![0]).toBeGreaterThan(-1);
    expect((await gdalInfo(target)).bands[0]!.description).toBe('NDVI');

    answer = { canceled: true };
    const cancelled = await call('rasters.export', { id: 'r-1', what: 'window' });
    expect(cancelled).toMatchObject({ ok: true, value: { savedTo: null } });
    answer = { canceled: false, filePath: path.join(dir, 'no-such-folder', 'x.tif') };
    const failed = await call('rasters.export', { id: 'r-1', what: 'window' });
    expect(failed).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/^Could not save .*x\.tif: ENOENT/) },
    });
    // Refused by the backend: no dialog.
    const count = dialogs.length;
    expect(await call('rasters.export', { id: 'nope', what: 'window' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument' },
    });
    expect(dialogs).toHaveLength(count);
    expect(await host.rasterExportFile('nope')).toBeNull();
  });

  it('names files for any site label', () => {
    expect(slug('Éclépens — Parcelle 12 / Nord')).toBe('eclepens-parcelle-12-nord');
    expect(slug('***')).toBe('raster');
    const view = { areaLabel: '2 km around 46.2, 6.1', raster: null } as never;
    expect(exportFileName(view, 'My index!')).toBe('2-km-around-46-2-6-1-my-index.tif');
  });
});
