/**
 * Offline rasters reach the renderer as a list with their headers read (`rasters.list`) and as
 * bytes by HTTP range over two paths: the backend's `rasterBytes`, browser mode's GET route
 * (token in the query) and Electron's `eo-raster:` scheme (main's handler -> the backend
 * process's channel). Windows written in the stored format with @eo/geotiff; GDAL reads the
 * bytes the route serves.
 */
import { gdalInfo } from '@eo/geotiff/testing';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserMode, type BrowserModeServer } from '../../browser-mode/server';
import type { FromBackend, PortLike, ToBackend } from '../../main/backend-protocol';
import { createBackendHost } from '../../main/backend-host';
import { serveBackend } from '../../main/backend-serve';
import { rasterResponse } from '../../main/raster-protocol';
import { CSP } from '../../shared/csp';
import { parseByteRange } from '../raster-bytes';
import { memorySecrets } from '../secrets';
import { startBackend, tempDir, type TestBackend } from './harness';
import { windowSource, writeSiteWindow, type SiteWindow } from './site-window';

let t: TestBackend;
let server: BrowserModeServer;
let dir: string;
let site: SiteWindow;
let fileBytes: Buffer;
const source = windowSource();

beforeAll(async () => {
  dir = tempDir('eo-offline-rasters-');
  site = await writeSiteWindow(path.join(dir, 'site.tif'), { width: 700, height: 600 });
  fileBytes = fs.readFileSync(site.file);
  source.add('r-1', site, 'Field 7');
  source.add('r-2', { file: path.join(dir, 'none.tif'), bytes: 0, sceneId: 's-2' }, 'Pending');
  source.setState('r-2', 'fetching', { bytes: null, storedAt: null, fetchedBytes: 1234 });
  t = startBackend({ offlineRasters: source });
  const rendererDir = path.join(dir, 'renderer');
  fs.mkdirSync(rendererDir);
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html>');
  server = await startBrowserMode({ backend: t.backend, rendererDir, token: 'tok-rasters' });
});
afterAll(async () => {
  await server?.close();
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('offline rasters for the renderer', () => {
  it('rasters.list reads each stored header: CRS, grid, bounds in lon/lat, bands, scene items', async () => {
    const list = await t.call('rasters.list');
    expect(list.bytes).toBe(site.bytes);
    // The imagery budget of the settings, shared with the quicklooks (none mirrored here).
    const { imageryBudgetMb } = await t.call('settings.get');
    expect(list.budget).toEqual({
      limitBytes: imageryBudgetMb * 2 ** 20,
      quicklookBytes: 0,
      usedBytes: site.bytes,
    });
    const [pending, stored] = list.rasters;
    expect(pending).toMatchObject({ id: 'r-2', state: 'fetching', raster: null, problem: null });
    expect(stored).toMatchObject({
      id: 'r-1',
      state: 'stored',
      areaLabel: 'Field 7',
      bytes: site.bytes,
      problem: null,
      raster: {
        epsg: 32632,
        width: 700,
        height: 600,
        geoTransform: [...site.geoTransform],
        nodata: 0,
        sceneId: site.sceneId,
        datetime: site.datetime,
        satellite: 'aurora-1',
        resolutionM: 10,
        bands: [
          { name: 'B02', commonName: 'blue', wavelengthNm: 490 },
          { name: 'B03', commonName: 'green', wavelengthNm: 560 },
          { name: 'B04', commonName: 'red', wavelengthNm: 665 },
          { name: 'B08', commonName: 'nir', wavelengthNm: 842 },
        ],
      },
    });
    expect(stored!.raster!.levels[0]).toEqual({ width: 700, height: 600 });
    expect(stored!.raster!.levels.length).toBeGreaterThan(1);
    // GDAL's corners (7 decimals), in lon/lat, inside the listed box (which also holds the edges' middles).
    const info = (await gdalInfo(site.file)) as unknown as {
      wgs84Extent: { coordinates: number[][][] };
    };
    const [w, s, e, n] = stored!.raster!.bounds;
    for (const [lon, lat] of info.wgs84Extent.coordinates[0]!) {
      expect(lon).toBeGreaterThanOrEqual(w - 1e-6);
      expect(lon).toBeLessThanOrEqual(e + 1e-6);
      expect(lat).toBeGreaterThanOrEqual(s - 1e-6);
      expect(lat).toBeLessThanOrEqual(n + 1e-6);
    }
  });

  it('a damaged stored file is listed with the problem, not thrown', async () => {
    const bad = path.join(dir, 'bad.tif');
    fs.writeFileSync(bad, 'not a tiff at all');
    source.add('r-bad', { file: bad, bytes: 17, sceneId: 's-bad' });
    try {
      const list = await t.call('rasters.list');
      const r = list.rasters.find((x) => x.id === 'r-bad')!;
      expect(r.raster).toBeNull();
      expect(r.problem).toMatch(/cannot be read/);
    } finally {
      source.remove('r-bad');
    }
  });

  it('the backend answers ranges of the stored file; 416, 400 and 404 otherwise', async () => {
    const a = await t.backend.rasterBytes({ rasterId: 'r-1', range: 'bytes=0-16383' });
    expect(a).toMatchObject({ status: 206, start: 0, end: 16383, size: site.bytes });
    if (a.status === 206)
      expect(Buffer.from(a.bytes).equals(fileBytes.subarray(0, 16384))).toBe(true);
    const tail = await t.backend.rasterBytes({ rasterId: 'r-1', range: 'bytes=-100' });
    if (tail.status !== 206) throw new Error(`status ${tail.status}`);
    expect(Buffer.from(tail.bytes).equals(fileBytes.subarray(site.bytes - 100))).toBe(true);
    const whole = await t.backend.rasterBytes({ rasterId: 'r-1', range: null });
    expect(whole.status).toBe(200);
    expect(await t.backend.rasterBytes({ rasterId: 'r-1', range: `bytes=${site.bytes}-` })).toEqual(
      { status: 416, size: site.bytes },
    );
    expect(await t.backend.rasterBytes({ rasterId: 'r-2', range: 'bytes=0-9' })).toEqual({
      status: 404,
    });
    expect(await t.backend.rasterBytes({ rasterId: 'nope', range: null })).toEqual({ status: 404 });
    for (const bad of [
      { rasterId: 'r-1', range: 'bytes=0-1,5-9' },
      { rasterId: 'r-1', range: 'items=0-9' },
      { rasterId: 'a b', range: null },
      { rasterId: 'r-1' },
      { rasterId: 'r-1', range: null, extra: 1 },
      'r-1',
    ])
      expect((await t.backend.rasterBytes(bad)).status, JSON.stringify(bad)).toBe(400);
  });

  it('parses one byte range as RFC 9110 does', () => {
    expect(parseByteRange('bytes=0-9', 100)).toEqual([0, 9]);
    expect(parseByteRange('bytes=90-', 100)).toEqual([90, 99]);
    expect(parseByteRange('bytes=90-500', 100)).toEqual([90, 99]);
    expect(parseByteRange('bytes=-10', 100)).toEqual([90, 99]);
    expect(parseByteRange('bytes=-500', 100)).toEqual([0, 99]);
    expect(parseByteRange('bytes=100-', 100)).toBeNull();
    expect(parseByteRange('bytes=9-0', 100)).toBeNull();
    expect(parseByteRange('bytes=-0', 100)).toBeNull();
    expect(parseByteRange('bytes=-', 100)).toBe('bad');
    expect(parseByteRange('bytes=1-2, 4-5', 100)).toBe('bad');
  });

  it('browser mode: GET with Range and the token, 206 that GDAL reads as the file', async () => {
    const url = (id: string, token = 'tok-rasters') =>
      `${server.url}/api/rasters/${encodeURIComponent(id)}?token=${token}`;
    const res = await fetch(url('r-1'), { headers: { Range: 'bytes=100-299' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 100-299/${site.bytes}`);
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('content-type')).toBe('image/tiff');
    expect(Buffer.from(await res.arrayBuffer()).equals(fileBytes.subarray(100, 300))).toBe(true);
    // The whole file through the route, read back by GDAL.
    const whole = Buffer.from(await (await fetch(url('r-1'))).arrayBuffer());
    const copy = path.join(dir, 'served.tif');
    fs.writeFileSync(copy, whole);
    expect(await gdalInfo(copy)).toMatchObject({ size: [700, 600] });
    const past = await fetch(url('r-1'), { headers: { Range: `bytes=${site.bytes}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${site.bytes}`);
    expect((await fetch(url('nope'))).status).toBe(404);
    expect((await fetch(url('r-1'), { headers: { Range: 'bytes=0-1,4-5' } })).status).toBe(400);
    expect((await fetch(url('r-1', 'wrong'))).status).toBe(401);
    expect((await fetch(`${server.url}/api/rasters/r-1`)).status).toBe(401);
    expect((await fetch(`${server.url}/api/rasters/a/b?token=tok-rasters`)).status).toBe(400);
  });

  it('Electron: the scheme answers ranges through the backend process channel', async () => {
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
    const get = (url: string, range?: string, method = 'GET') =>
      rasterResponse({ url, method, headers: new Headers(range ? { Range: range } : {}) }, host);

    const res = await get('eo-raster://file/r-1', 'bytes=10-19');
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 10-19/${site.bytes}`);
    expect(res.headers.get('access-control-expose-headers')).toMatch(/Content-Range/);
    expect(Buffer.from(await res.arrayBuffer()).equals(fileBytes.subarray(10, 20))).toBe(true);
    expect((await get('eo-raster://file/r-1', `bytes=${site.bytes}-`)).status).toBe(416);
    expect((await get('eo-raster://file/nope')).status).toBe(404);
    expect((await get('eo-raster://file/a%20b')).status).toBe(400);
    expect((await get('eo-raster://other/r-1')).status).toBe(400);
    expect((await get('eo-raster://file/r-1?x=1')).status).toBe(400);
    expect((await get('eo-raster://file/r-1', undefined, 'POST')).status).toBe(405);
    expect((await get('eo-raster://file/r-1', undefined, 'OPTIONS')).status).toBe(204);
  });

  it('the CSP lets the page fetch the scheme (connect-src) and run its own workers, nothing else', () => {
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(
      fs.readFileSync(path.join(__dirname, '../../renderer/index.html'), 'utf8'),
    )![1]!;
    for (const policy of [CSP, meta]) {
      const directives = policy.split(';').map((d) => d.trim());
      expect(directives.filter((d) => d.includes('eo-raster'))).toEqual([
        "connect-src 'self' eo-raster:",
      ]);
      expect(directives).toContain("worker-src 'self'");
      expect(policy).not.toMatch(/unsafe-eval/);
    }
  });

  it('rasters.remove removes the raster and its file', async () => {
    const copy = path.join(dir, 'second.tif');
    fs.copyFileSync(site.file, copy);
    source.add('r-3', { file: copy, bytes: site.bytes, sceneId: 's-3' });
    expect(await t.call('rasters.remove', { id: 'r-3' })).toEqual({ removed: true });
    expect(fs.existsSync(copy)).toBe(false);
    expect(await t.call('rasters.remove', { id: 'r-3' })).toEqual({ removed: false });
    expect((await t.call('rasters.list')).rasters.map((r) => r.id)).toEqual(['r-2', 'r-1']);
  });
});
