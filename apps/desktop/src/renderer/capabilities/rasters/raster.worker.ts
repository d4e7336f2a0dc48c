/**
 * The raster worker: offline rasters decoded and drawn beside the map, never on the page's
 * thread (RasterEngine does the work; this file only carries the messages). Bytes come by range
 * from the raster URLs (shared/raster-paths.ts), so the backend's event loop never decodes either.
 */
// First: the worker has zod of its own, under the page's policy (schemas-without-eval.ts).
import '../../schemas-without-eval';
import { RasterEngine } from './raster-engine';
import type { FromWorker, ToWorker } from './raster-messages';
import { isViewArea } from './raster-read-ahead';
import { httpRangeSource } from './raster-source';

interface WorkerScope {
  onmessage: ((e: MessageEvent<ToWorker>) => void) | null;
  postMessage(message: FromWorker, transfer?: Transferable[]): void;
}
const scope = self as unknown as WorkerScope;
const engine = new RasterEngine();
/** Tile requests the page no longer wants (scrolled away, zoomed past). */
const cancelled = new Set<number>();

async function answer(
  m: Exclude<ToWorker, { type: 'close' } | { type: 'cancel' } | { type: 'readAhead' }>,
): Promise<void> {
  try {
    switch (m.type) {
      case 'open': {
        const info = await engine.open(m.id, await httpRangeSource(m.url));
        return scope.postMessage({ req: m.req, ok: true, value: info });
      }
      case 'bandStats':
        return scope.postMessage({ req: m.req, ok: true, value: await engine.bandStats(m.id) });
      case 'indexStats':
        return scope.postMessage({
          req: m.req,
          ok: true,
          value: await engine.indexStats(m.id, m.style),
        });
      case 'pixel':
        return scope.postMessage({
          req: m.req,
          ok: true,
          value: await engine.pixel(m.id, m.lon, m.lat, m.index),
        });
      case 'tile': {
        if (cancelled.delete(m.req))
          return scope.postMessage({ req: m.req, ok: true, value: null });
        const pixels = await engine.renderTile(m.id, m.tile, m.style, () => cancelled.has(m.req));
        // The bitmap made here (premultiplied, ready to show): the page's thread copies nothing.
        const image =
          pixels && !cancelled.has(m.req)
            ? await createImageBitmap(
                new ImageData(pixels as Uint8ClampedArray<ArrayBuffer>, m.tile.size, m.tile.size),
              )
            : null;
        cancelled.delete(m.req);
        return scope.postMessage({ req: m.req, ok: true, value: image }, image ? [image] : []);
      }
    }
  } catch (e) {
    cancelled.delete(m.req);
    scope.postMessage({ req: m.req, ok: false, error: e instanceof Error ? e.message : String(e) });
  }
}

scope.onmessage = (e) => {
  const m = e.data;
  if (m.type === 'close') return engine.close(m.id);
  if (m.type === 'cancel') {
    cancelled.add(m.req);
    return;
  }
  if (m.type === 'readAhead') {
    // A move began: its own tiles only. A raster closed meanwhile, or a view off it: nothing.
    if (m.view === null) engine.stopReadAhead(m.id);
    else if (isViewArea(m.view)) void engine.readAhead(m.id, m.view).catch(() => undefined);
    return;
  }
  void answer(m);
};
