/**
 * The page `bench/raster-frames.ts` opens in Chromium: a 1280x800 map over an offline site with
 * the offline basemap, footprints (the site's scene and synthetic ones about it) and the site's
 * raster drawn by the app's raster worker (RasterLayer over rasterClient: decoded and painted off
 * the page's thread, read by range from the bench's raster route), panned by mouse drags as a
 * user does at each zoom from the fitted one past the native resolution. A frame's time is the
 * interval between two animation frames. The baseline is the same drags with the raster layer
 * off, interleaved. Query: ?url=&w=&s=&e=&n=&z=&zooms=4&drags=4&frames=30.
 * Result: window.__benchResult (or __benchError).
 */
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { FootprintLayer } from '../../../src/renderer/map/footprint-layer';
import { createOfflineBasemap } from '../../../src/renderer/map/offline-basemap';
import { rasterClient } from '../../../src/renderer/capabilities/rasters/raster-client';
import { RasterLayer } from '../../../src/renderer/capabilities/rasters/raster-layer';
import type { RasterPanFigures } from './figures';
import { drag, nextFrame } from '../drag';

const published = window as unknown as { __benchResult?: RasterPanFigures; __benchError?: string };
/** Per-frame steps of the drags (px): east, south, west, north. */
const DIRECTIONS: readonly (readonly [number, number])[] = [
  [12, 0],
  [0, 12],
  [-12, 0],
  [0, -12],
];
/** A drag of `frames` steps, then 10 frames: the tiles it reached arrive and are put on. */
const panBy = (el: HTMLElement, frames: number, dx: number, dy: number) =>
  drag(el, { frames, dx, dy, framesAfter: 10 });

/** Resolves at the layer's next `load` (every tile in view painted), or says it never came. */
function loaded(layer: RasterLayer, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the raster never finished ${what}`)), 60_000);
    layer.once('load', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

async function measure(q: URLSearchParams): Promise<RasterPanFigures> {
  const [w, s, e, n] = ['w', 's', 'e', 'n'].map((k) => Number(q.get(k)));
  const fit = Number(q.get('z'));
  const zooms = Number(q.get('zooms') ?? 4);
  const drags = Number(q.get('drags') ?? 4);
  const frames = Number(q.get('frames') ?? 30);
  const centre = L.latLng((s! + n!) / 2, (w! + e!) / 2);
  const el = document.getElementById('map') as HTMLDivElement;
  const map = L.map(el, {
    center: centre,
    zoom: fit,
    inertia: false,
    zoomAnimation: false,
    fadeAnimation: false,
  });
  const basemap = createOfflineBasemap(map, { detailed: true });
  await basemap.idle();
  // The site's scene and footprints scattered about it (every one partly in view at the fit).
  const ids: string[] = ['site'];
  const rings: number[][] = [[w!, s!, e!, s!, e!, n!, w!, n!, w!, s!]];
  for (let i = 0; i < 200; i++) {
    const x = w! + (((i * 37) % 100) / 100) * (e! - w!);
    const y = s! + (((i * 61) % 100) / 100) * (n! - s!);
    const d = 0.05 + (i % 7) * 0.02;
    ids.push(`f${i}`);
    rings.push([x, y, x + d, y + d / 10, x + d, y + d, x, y + d, x, y]);
  }
  const footprints = new FootprintLayer().addTo(map);
  footprints.setFootprints(ids, rings);
  const client = rasterClient();
  await client.open('site', q.get('url')!);
  const stats = await client.bandStats('site');
  const st = (b: number) => [stats[b]!.low, stats[b]!.high] as [number, number];
  const layer = new RasterLayer({
    client,
    rasterId: 'site',
    style: { kind: 'bands', bands: [3, 2, 1], stretch: [st(3), st(2), st(1)] },
    bounds: [w!, s!, e!, n!],
  });
  const first = loaded(layer, 'its first view');
  layer.addTo(map);
  await first;
  const raster: number[] = [];
  const baseline: number[] = [];
  const zoomList: number[] = [];
  for (let z = fit; z < fit + zooms; z++) {
    zoomList.push(z);
    map.setView(centre, z, { animate: false });
    // Tiles of the new view come from the worker; none are asked when the view did not change.
    if (layer.isLoading()) await loaded(layer, `the view at zoom ${z}`);
    for (let k = 0; k < drags; k++) {
      // East, south, west, north: the view goes round and comes back.
      const [dx, dy] = DIRECTIONS[k % 4]!;
      layer.remove();
      await nextFrame();
      performance.mark('eo:baseline:start');
      baseline.push(...(await panBy(el, frames, -dx, -dy)));
      performance.mark('eo:baseline:end');
      map.setView(centre, z, { animate: false });
      layer.addTo(map);
      await nextFrame();
      performance.mark('eo:raster:start');
      raster.push(...(await panBy(el, frames, -dx, -dy)));
      performance.mark('eo:raster:end');
    }
  }
  return {
    raster,
    baseline,
    zooms: zoomList,
    drags,
    painted: layer.painted,
    footprints: ids.length,
  };
}

setTimeout(() => {
  measure(new URLSearchParams(location.search)).then(
    (r) => (published.__benchResult = r),
    (e: unknown) =>
      (published.__benchError = e instanceof Error ? `${e.message}\n${e.stack}` : String(e)),
  );
}, 0);
