/**
 * The page `bench/quicklooks.ts` opens in Chromium: N scene footprints in view on a 1280x800
 * Leaflet map (zoom 7), each with its own 256 px PNG picture (made here, loaded as images like
 * the app's mirrored thumbnails), drawn by the QuicklookLayer over the FootprintLayer. The same
 * scripted pans and zooms (animated, as a user's) run twice: with the quicklooks and, as the
 * baseline, the same map without them. Every frame's interval is recorded (requestAnimationFrame)
 * and each layer redraw timed; the JS heap (after a forced GC) is read after every cycle.
 * Query: ?bench=quicklooks&n=500&cycles=6. Result: window.__benchResult (or __benchError).
 */
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { FootprintLayer } from '../../../src/renderer/map/footprint-layer';
import { QuicklookLayer } from '../../../src/renderer/map/quicklook-layer';
import type { Session } from './quicklooks-session';

/** What this page publishes (a cast, not a global: the footprint bench page declares its own). */
const out = window as unknown as {
  __benchResult?: Session[];
  __benchError?: string;
  gc?: () => void;
};

const CENTER: L.LatLngExpression = [47, 10];
const ZOOM = 7;

/** Deterministic skewed quads of 0.3-0.7° spread over the view at zoom 7 (they overlap). */
function footprints(n: number): { ids: string[]; rings: number[][] } {
  let s = 7;
  const rnd = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const ids: string[] = [];
  const rings: number[][] = [];
  for (let i = 0; i < n; i++) {
    const lon = 10 - 6 + rnd() * 11;
    const lat = 47 - 2.6 + rnd() * 4.6;
    const w = 0.3 + rnd() * 0.4;
    const h = 0.2 + rnd() * 0.3;
    const k = 0.02 + rnd() * 0.05;
    ids.push(`s${i}`);
    rings.push([
      lon,
      lat + h,
      lon + w,
      lat + h - k,
      lon + w + k,
      lat - k,
      lon + k,
      lat,
      lon,
      lat + h,
    ]);
  }
  return { ids, rings };
}

/** One 256 px PNG per scene: fields, a river, cloud; different for every id. */
async function pictures(ids: readonly string[]): Promise<Map<string, string>> {
  const canvas = document.createElement('canvas');
  canvas.width = 256;
  canvas.height = 256;
  const ctx = canvas.getContext('2d')!;
  const urls = new Map<string, string>();
  for (let i = 0; i < ids.length; i++) {
    ctx.fillStyle = `hsl(${80 + ((i * 37) % 60)}, 35%, ${30 + (i % 20)}%)`;
    ctx.fillRect(0, 0, 256, 256);
    for (let f = 0; f < 24; f++) {
      ctx.fillStyle = `hsl(${40 + (((i + f) * 53) % 90)}, 40%, ${25 + ((i * f) % 35)}%)`;
      ctx.fillRect(
        ((i + f) * 41) % 224,
        ((i * 3 + f) * 29) % 224,
        16 + (f % 5) * 8,
        12 + (f % 4) * 9,
      );
    }
    ctx.strokeStyle = '#3b6e9e';
    ctx.lineWidth = 6;
    ctx.beginPath();
    ctx.moveTo(0, (i * 13) % 256);
    ctx.bezierCurveTo(90, 40, 160, 220, 256, (i * 29) % 256);
    ctx.stroke();
    ctx.fillStyle = 'rgba(255,255,255,0.6)';
    ctx.beginPath();
    ctx.arc((i * 71) % 256, (i * 47) % 256, 20 + (i % 40), 0, Math.PI * 2);
    ctx.fill();
    const blob = await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('toBlob failed'))), 'image/png'),
    );
    urls.set(ids[i]!, URL.createObjectURL(blob));
  }
  return urls;
}

const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));
const once = (map: L.Map, event: string) =>
  new Promise<void>((resolve) => map.once(event, () => resolve()));

function heapNow(): number {
  out.gc?.();
  const memory = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
  return memory?.usedJSHeapSize ?? NaN;
}

/**
 * Times every redraw of `layer` (its moveend / zoomend reset) into `into`, its raster included:
 * a 1-pixel read of each canvas on the map waits for the drawing to be done.
 */
function timeResets(layer: { reset(): void }, el: HTMLElement, into: number[]): void {
  const reset = layer.reset.bind(layer);
  layer.reset = () => {
    const t = performance.now();
    reset();
    for (const c of el.querySelectorAll('canvas')) c.getContext('2d')?.getImageData(0, 0, 1, 1);
    into.push(performance.now() - t);
  };
}

async function session(
  withQuicklooks: boolean,
  ids: string[],
  rings: number[][],
  urls: Map<string, string>,
  cycles: number,
): Promise<Session> {
  const el = document.getElementById('map') as HTMLDivElement;
  const map = L.map(el, { center: CENTER, zoom: ZOOM, fadeAnimation: false });
  const redraws: number[] = [];
  const footprintLayer = new FootprintLayer().addTo(map);
  footprintLayer.setFootprints(ids, rings);
  let quicklooks: QuicklookLayer | null = null;
  if (withQuicklooks) {
    const layer = new QuicklookLayer(
      (id, variant) => (variant === 'thumbnail' ? (urls.get(id) ?? null) : null),
      { maxDrawn: ids.length },
    ).addTo(map);
    layer.setFootprints(ids, rings);
    quicklooks = layer;
    // Every picture loaded and drawn before measuring (bounded: the page reports a timeout).
    const until = performance.now() + 60_000;
    while (layer.drawn < ids.length) {
      if (performance.now() > until) throw new Error(`only ${layer.drawn} of ${ids.length} drawn`);
      await frame();
    }
    timeResets(layer, el, redraws);
  }
  timeResets(footprintLayer, el, redraws);
  const drawn = quicklooks?.drawn ?? 0;

  const frames: number[] = [];
  const heap: number[] = [];
  // Every frame's interval, except while the heap is read (a forced GC is no frame of ours).
  let paused = false;
  let done = false;
  let last = await frame();
  const record = (t: number) => {
    if (!paused) frames.push(t - last);
    last = t;
    if (!done) requestAnimationFrame(record);
  };
  requestAnimationFrame(record);
  for (let c = 0; c < cycles; c++) {
    // Pans as a drag would end: animated, a quarter second, then the redraw at moveend.
    for (const [dx, dy] of [
      [300, 120],
      [-300, -120],
      [-200, 150],
      [200, -150],
    ] as const) {
      const end = once(map, 'moveend');
      map.panBy([dx, dy], { animate: true, duration: 0.25 });
      await end;
      await frame();
    }
    // Zoom in and out one level, animated (the layers scale by CSS, then redraw).
    for (const z of [ZOOM + 1, ZOOM]) {
      const end = once(map, 'zoomend');
      map.setZoom(z, { animate: true });
      await end;
      await frame();
      await frame();
    }
    paused = true;
    heap.push(heapNow());
    await frame();
    await frame();
    paused = false;
  }
  done = true;
  await frame();
  // The moved canvas must be what a whole redraw draws.
  let panMismatch = 0;
  if (quicklooks) {
    const end = once(map, 'moveend');
    map.panBy([137, 61], { animate: false });
    await end;
    const canvas = el.querySelector<HTMLCanvasElement>('.leaflet-pane canvas[data-drawn]')!;
    const read = () =>
      canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
    const moved = read();
    quicklooks.redraw();
    const whole = read();
    let differ = 0;
    for (let i = 0; i < whole.length; i += 4) {
      for (let c = 0; c < 4; c++) {
        if (Math.abs(whole[i + c]! - moved[i + c]!) > 2) {
          differ++;
          break;
        }
      }
    }
    panMismatch = differ / (whole.length / 4);
  }
  quicklooks?.remove();
  footprintLayer.remove();
  map.remove();
  return { quicklooks: withQuicklooks, drawn, frames, redraws, heap, panMismatch };
}

const q = new URLSearchParams(location.search);
const n = Number(q.get('n') ?? 500);
const cycles = Number(q.get('cycles') ?? 6);
setTimeout(() => {
  void (async () => {
    try {
      const { ids, rings } = footprints(n);
      const urls = await pictures(ids);
      // Baseline first and last: the machine's load drifts; both sessions of each kind count.
      const sessions: Session[] = [];
      for (const withQuicklooks of [false, true, false, true]) {
        sessions.push(await session(withQuicklooks, ids, rings, urls, Math.ceil(cycles / 2)));
      }
      out.__benchResult = sessions;
    } catch (e) {
      out.__benchError = e instanceof Error ? `${e.message}\n${e.stack}` : String(e);
    }
  })();
}, 0);
