/**
 * The page's side of the raster worker: one worker for the app (its caches are shared by every
 * open raster), requests numbered and answered by promise, tiles cancellable. Nothing here
 * decodes or paints: the page only hands the finished bitmaps to the map's canvases.
 */
import type { BandStats, PixelReading, RasterInfo } from './raster-engine';
import type { MapTile } from './raster-grid';
import type { FromWorker, ToWorker } from './raster-messages';
import type { ViewArea } from './raster-read-ahead';
import type { IndexStyle, RasterStyle } from './raster-style';

export interface TileRequest {
  /** The painted tile, or null where the raster has nothing (or the tile was cancelled). */
  readonly image: Promise<ImageBitmap | null>;
  cancel(): void;
}

export interface RasterClient {
  open(id: string, url: string): Promise<RasterInfo>;
  close(id: string): void;
  bandStats(id: string): Promise<BandStats[]>;
  indexStats(id: string, style: IndexStyle): Promise<BandStats | null>;
  tile(id: string, tile: MapTile, style: RasterStyle): TileRequest;
  /** The map's view after a move: the worker decodes ahead of it while idle (null: a move began, stop). */
  readAhead(id: string, view: ViewArea | null): void;
  pixel(
    id: string,
    lon: number,
    lat: number,
    index: IndexStyle | null,
  ): Promise<PixelReading | null>;
}

/** What the client needs of a Worker (a test passes one over an in-process engine). */
export interface WorkerLike {
  postMessage(message: ToWorker): void;
  onmessage: ((e: MessageEvent<FromWorker>) => void) | null;
  onerror?: ((e: ErrorEvent) => void) | null;
}

export function createRasterClient(worker: WorkerLike): RasterClient {
  let next = 1;
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  worker.onmessage = (e) => {
    const m = e.data;
    const w = waiting.get(m.req);
    if (!w) return;
    waiting.delete(m.req);
    if (m.ok) w.resolve(m.value);
    else w.reject(new Error(m.error));
  };
  worker.onerror = (e) => {
    // The worker itself failed (its code did not load): every request says so.
    for (const w of waiting.values()) w.reject(new Error(`the raster worker failed: ${e.message}`));
    waiting.clear();
  };
  const ask = <T>(make: (req: number) => ToWorker): { req: number; done: Promise<T> } => {
    const req = next++;
    const done = new Promise<T>((resolve, reject) =>
      waiting.set(req, { resolve: resolve as (v: unknown) => void, reject }),
    );
    worker.postMessage(make(req));
    return { req, done };
  };
  return {
    open: (id, url) => ask<RasterInfo>((req) => ({ type: 'open', req, id, url })).done,
    close: (id) => worker.postMessage({ type: 'close', id }),
    bandStats: (id) => ask<BandStats[]>((req) => ({ type: 'bandStats', req, id })).done,
    indexStats: (id, style) =>
      ask<BandStats | null>((req) => ({ type: 'indexStats', req, id, style })).done,
    tile(id, tile, style) {
      const { req, done } = ask<ImageBitmap | null>((r) => ({
        type: 'tile',
        req: r,
        id,
        tile,
        style,
      }));
      return { image: done, cancel: () => worker.postMessage({ type: 'cancel', req }) };
    },
    readAhead: (id, view) => worker.postMessage({ type: 'readAhead', id, view }),
    pixel: (id, lon, lat, index) =>
      ask<PixelReading | null>((req) => ({ type: 'pixel', req, id, lon, lat, index })).done,
  };
}

let shared: RasterClient | null = null;

/** The app's raster worker, started on first use. */
export function rasterClient(): RasterClient {
  shared ??= createRasterClient(
    new Worker(new URL('./raster.worker.ts', import.meta.url), { type: 'module', name: 'rasters' }),
  );
  return shared;
}

/** Tests: use this client instead of a worker. */
export function provideRasterClient(client: RasterClient | null): void {
  shared = client;
}
