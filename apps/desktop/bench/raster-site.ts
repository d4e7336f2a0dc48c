/**
 * The offline raster the raster benchmarks read (raster-pan.ts, raster-index.ts,
 * raster-first-picture.ts, raster-frames.ts): a site's window in the stored format, written by the tests' own
 * fixture (src/backend/__tests__/site-window.ts) to a temp file, and served by the backend's
 * raster byte route (src/backend/raster-bytes.ts) on 127.0.0.1, read back by the raster worker's
 * own HTTP range source, as the app reads it. The engine is the worker's (RasterEngine), run in
 * Node: the worker only carries its messages.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { makeRasterBytes } from '../src/backend/raster-bytes';
import { writeSiteWindow, type SiteWindow } from '../src/backend/__tests__/site-window';
import type { ViewArea } from '../src/renderer/capabilities/rasters/raster-read-ahead';
import { mercX, mercY, unmercX, unmercY } from '../src/renderer/map/mercator';

export interface ServedSite {
  readonly site: SiteWindow;
  /** The raster's URL (what the worker is given). */
  readonly url: string;
  /** The window's centre [lon, lat], and the zoom that fits it in a 1280x800 map. */
  readonly centre: readonly [number, number];
  /** The window's lon/lat bounds [west, south, east, north] (its corners'). */
  readonly bounds: readonly [number, number, number, number];
  readonly fit: number;
  close(): Promise<void>;
}

/** Writes a `side` x `side` four-band window and serves it by range. */
export async function serveSite(side: number): Promise<ServedSite> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-raster-bench-'));
  const site = await writeSiteWindow(path.join(dir, 'site.tif'), { width: side, height: side });
  const bytes = makeRasterBytes({
    stored: (id) => Promise.resolve(id === 'site' ? { file: site.file, size: site.bytes } : null),
  });
  const server = http.createServer((req, res) => {
    // The Chromium bench's page is on another port of 127.0.0.1 (raster-frames.ts).
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-expose-headers', 'content-range');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-headers': 'range' }).end();
      return;
    }
    void bytes.read({ rasterId: 'site', range: req.headers.range ?? null }).then((a) => {
      if (a.status === 200 || a.status === 206) {
        res.writeHead(a.status, {
          'content-range': `bytes ${a.start}-${a.end}/${a.size}`,
          'content-length': a.bytes.length,
        });
        res.end(a.bytes);
      } else res.writeHead(a.status).end();
    });
  });
  // Node's 5 s default closes idle sockets that fetch may be reusing at that moment (ECONNRESET
  // between two rounds); the app's routes are as long-lived as the bench.
  server.keepAliveTimeout = 10 * 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const [w, n] = site.lonLatOf(0, 0);
  const [e, s] = site.lonLatOf(side, side);
  return {
    site,
    url: `http://127.0.0.1:${port}/raster/site`,
    centre: site.lonLatOf(side / 2, side / 2),
    bounds: [w, s, e, n],
    fit: fitZoom([w, s, e, n]),
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await bytes.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A map view: its centre in world pixels at zoom `z`, and its size in screen pixels. */
export interface View {
  readonly z: number;
  readonly cx: number;
  readonly cy: number;
  readonly width: number;
  readonly height: number;
}

/** A 256-px map tile of a view. */
export interface ViewTile {
  readonly z: number;
  readonly x: number;
  readonly y: number;
  readonly size: 256;
}

/** The view centred on (lon, lat) at zoom z. */
export function viewAt(lon: number, lat: number, z: number, width = 1280, height = 800): View {
  const scale = 256 * 2 ** z;
  return { z, cx: mercX(lon) * scale, cy: mercY(lat) * scale, width, height };
}

/** What the map tells the raster worker of a view (its zoom and lon/lat bounds). */
export function viewArea(v: View): ViewArea {
  const scale = 256 * 2 ** v.z;
  return {
    z: v.z,
    bounds: [
      unmercX((v.cx - v.width / 2) / scale),
      unmercY((v.cy + v.height / 2) / scale),
      unmercX((v.cx + v.width / 2) / scale),
      unmercY((v.cy - v.height / 2) / scale),
    ],
  };
}

/** Every tile the view shows (what Leaflet's GridLayer asks), by the key `z/x/y`. */
export function tilesOf(v: View): Map<string, ViewTile> {
  const out = new Map<string, ViewTile>();
  const x0 = Math.floor((v.cx - v.width / 2) / 256);
  const x1 = Math.floor((v.cx + v.width / 2 - 1) / 256);
  const y0 = Math.floor((v.cy - v.height / 2) / 256);
  const y1 = Math.floor((v.cy + v.height / 2 - 1) / 256);
  for (let y = y0; y <= y1; y++)
    for (let x = x0; x <= x1; x++) out.set(`${v.z}/${x}/${y}`, { z: v.z, x, y, size: 256 });
  return out;
}

/** The zoom Leaflet's fitBounds picks for lon/lat bounds in a view (whole zooms). */
export function fitZoom(
  [w, s, e, n]: readonly [number, number, number, number],
  width = 1280,
  height = 800,
): number {
  for (let z = 20; z > 0; z--) {
    const scale = 256 * 2 ** z;
    if ((mercX(e) - mercX(w)) * scale <= width && (mercY(s) - mercY(n)) * scale <= height) return z;
  }
  return 0;
}

export const percentile = (a: readonly number[], p: number): number => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? NaN;
};

export const machine = (): string =>
  `load average ${os.loadavg()[0]!.toFixed(2)} on ${os.cpus().length} cores`;
