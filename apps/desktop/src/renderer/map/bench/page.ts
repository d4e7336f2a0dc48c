/**
 * The page `bench/footprints.ts` opens in Chromium: N synthetic footprints over Europe on a
 * 1280x800 Leaflet map at zoom 5, drawn by the FootprintLayer and by the floor (the same
 * polygons with raw Canvas2D, one path each, coordinates from Leaflet's projection). Times are
 * taken with a 1-pixel getImageData after each draw, so the raster work is included.
 * Query: ?n=10000,50000&runs=7. Result: window.__benchResult (or __benchError).
 */
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { FootprintLayer } from '../footprint-layer';

interface Figures {
  n: number;
  drawn: number;
  oursFirstMs: number;
  oursRedrawMs: number;
  floorFirstMs: number;
  floorRedrawMs: number;
}

declare global {
  interface Window {
    __benchResult?: Figures[];
    __benchError?: string;
  }
}

/** Deterministic quads of 10-50 km, slightly skewed, over Europe. */
function footprints(n: number): { ids: string[]; rings: number[][] } {
  let s = 1;
  const rnd = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const ids: string[] = [];
  const rings: number[][] = [];
  for (let i = 0; i < n; i++) {
    const lon = -10 + rnd() * 40;
    const lat = 35 + rnd() * 25;
    const w = 0.1 + rnd() * 0.4;
    const h = 0.1 + rnd() * 0.4;
    const k = rnd() * 0.05;
    ids.push(`s${i}`);
    rings.push([lon, lat, lon + w, lat + k, lon + w + k, lat + h, lon + k, lat + h + k, lon, lat]);
  }
  return { ids, rings };
}

const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)] ?? NaN;
const flush = (canvases: Iterable<HTMLCanvasElement>) => {
  for (const c of canvases) c.getContext('2d')?.getImageData(0, 0, 1, 1);
};

function measure(n: number, runs: number): Figures {
  const el = document.getElementById('map') as HTMLDivElement;
  const map = L.map(el, { center: [47, 10], zoom: 5, zoomAnimation: false, fadeAnimation: false });
  const { ids, rings } = footprints(n);
  const pans: Array<[number, number]> = Array.from({ length: runs }, (_, k) => [
    k % 2 ? 240 : -240,
    k % 3 ? 60 : -60,
  ]);

  const layer = new FootprintLayer().addTo(map);
  const ours = () => el.querySelectorAll<HTMLCanvasElement>('.eo-canvas-view__canvas');
  let t = performance.now();
  layer.setFootprints(ids, rings);
  flush(ours());
  const oursFirstMs = performance.now() - t;
  const oursRedraw: number[] = [];
  for (const p of pans) {
    map.panBy(p, { animate: false }); // moveend: the layer redraws here
    t = performance.now();
    layer.reset();
    flush(ours());
    oursRedraw.push(performance.now() - t);
  }
  const drawn = layer.lastDrawn;
  layer.remove();

  const canvas = document.createElement('canvas');
  canvas.width = 1280;
  canvas.height = 800;
  canvas.style.cssText = 'position:absolute;left:0;top:0;z-index:1000';
  document.body.append(canvas);
  const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
  const floor = () => {
    ctx.clearRect(0, 0, 1280, 800);
    for (const ring of rings) {
      ctx.beginPath();
      for (let k = 0; k < ring.length; k += 2) {
        const p = map.latLngToContainerPoint([ring[k + 1] as number, ring[k] as number]);
        if (k === 0) ctx.moveTo(p.x, p.y);
        else ctx.lineTo(p.x, p.y);
      }
      ctx.closePath();
      ctx.fillStyle = 'rgba(37, 99, 235, 0.07)';
      ctx.fill();
      ctx.strokeStyle = 'rgba(29, 78, 216, 0.85)';
      ctx.stroke();
    }
    flush([canvas]);
  };
  map.setView([47, 10], 5, { animate: false });
  t = performance.now();
  floor();
  const floorFirstMs = performance.now() - t;
  const floorRedraw: number[] = [];
  for (const p of pans) {
    map.panBy(p, { animate: false });
    t = performance.now();
    floor();
    floorRedraw.push(performance.now() - t);
  }
  canvas.remove();
  map.remove();
  return {
    n,
    drawn,
    oursFirstMs,
    oursRedrawMs: median(oursRedraw),
    floorFirstMs,
    floorRedrawMs: median(floorRedraw),
  };
}

const q = new URLSearchParams(location.search);
const sizes = (q.get('n') ?? '10000,50000').split(',').map(Number);
const runs = Number(q.get('runs') ?? 7);
setTimeout(() => {
  try {
    window.__benchResult = sizes.map((n) => measure(n, runs));
  } catch (e) {
    window.__benchError = e instanceof Error ? `${e.message}\n${e.stack}` : String(e);
  }
}, 0);
