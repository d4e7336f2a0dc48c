/**
 * The page `bench/footprints.ts` opens in Chromium: N synthetic footprints over Europe on a
 * 1280x800 Leaflet map at zoom 5, drawn by the FootprintLayer and by the strict floor (the
 * same polygons with raw Canvas2D on a canvas of the layer's size, one path each, coordinates
 * projected once). Medians of `runs` samples, first draws included. Times are taken with a
 * 1-pixel getImageData after each draw, so the raster work is included.
 * Query: ?n=10000,50000&runs=7. Result: window.__benchResult (or __benchError).
 */
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { FootprintLayer } from '../../../src/renderer/map/footprint-layer';
import { footprints } from './synthetic-footprints';
import type { FootprintFigures as Figures } from './figures';

declare global {
  interface Window {
    __benchResult?: Figures[];
    __benchError?: string;
  }
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

  // First draw: a fresh layer each time, several samples (one sample swung 0.75x to 1.95x).
  const ours = () => el.querySelectorAll<HTMLCanvasElement>('.eo-canvas-view__canvas');
  const oursFirst: number[] = [];
  let size = { width: 0, height: 0 };
  for (let k = 0; k < runs; k++) {
    const fresh = new FootprintLayer().addTo(map);
    const t = performance.now();
    fresh.setFootprints(ids, rings);
    fresh.redraw(); // what the next frame would draw (setFootprints asks for it)
    flush(ours());
    oursFirst.push(performance.now() - t);
    const first = ours()[0];
    size = { width: first?.width ?? 0, height: first?.height ?? 0 };
    fresh.remove();
  }
  const layer = new FootprintLayer().addTo(map);
  layer.setFootprints(ids, rings);
  layer.redraw();
  flush(ours());
  const oursRedraw: number[] = [];
  for (const p of pans) {
    map.panBy(p, { animate: false }); // moveend: the layer redraws here
    const t = performance.now();
    layer.reset();
    flush(ours());
    oursRedraw.push(performance.now() - t);
  }
  const drawn = layer.lastDrawn;
  layer.remove();

  // The strict floor: raw Canvas2D on a canvas of our layer's size (its padding included), one
  // path per footprint, coordinates projected once (world pixels at this zoom, like our layer)
  // and only shifted per draw: no per-point Leaflet projection, which our layer avoids too.
  const canvas = document.createElement('canvas');
  canvas.width = size.width || 1280;
  canvas.height = size.height || 800;
  canvas.style.cssText = 'position:absolute;left:0;top:0;z-index:1000';
  document.body.append(canvas);
  const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
  const zoom = map.getZoom();
  let world: Float64Array[] = [];
  // Spherical Mercator in world pixels, inline (what map.project computes, without a Point per
  // call); checked against Leaflet's own projection below.
  const scale = 256 * 2 ** zoom;
  const project = () => {
    world = rings.map((ring) => {
      const xy = new Float64Array(ring.length);
      for (let k = 0; k < ring.length; k += 2) {
        const lat = ((ring[k + 1] as number) * Math.PI) / 180;
        xy[k] = (scale * ((ring[k] as number) + 180)) / 360;
        xy[k + 1] = scale * (0.5 - Math.log(Math.tan(Math.PI / 4 + lat / 2)) / (2 * Math.PI));
      }
      return xy;
    });
  };
  project();
  const check = map.project([rings[0]![1]!, rings[0]![0]!], zoom);
  if (Math.abs(check.x - world[0]![0]!) > 0.01 || Math.abs(check.y - world[0]![1]!) > 0.01) {
    throw new Error(
      `floor projection differs from Leaflet's: ${check} vs ${world[0]![0]}, ${world[0]![1]}`,
    );
  }
  const floor = () => {
    // World pixels to this canvas: one shift for every point (the canvas sits where ours does).
    const origin = map.getPixelBounds().min!;
    const dx = (canvas.width - 1280) / 2 - origin.x;
    const dy = (canvas.height - 800) / 2 - origin.y;
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = 'rgba(37, 99, 235, 0.07)';
    ctx.strokeStyle = 'rgba(29, 78, 216, 0.85)';
    for (const xy of world) {
      ctx.beginPath();
      ctx.moveTo(xy[0]! + dx, xy[1]! + dy);
      for (let k = 2; k < xy.length; k += 2) ctx.lineTo(xy[k]! + dx, xy[k + 1]! + dy);
      ctx.closePath();
      ctx.fill();
      ctx.stroke();
    }
    flush([canvas]);
  };
  map.setView([47, 10], 5, { animate: false });
  const floorFirst: number[] = [];
  for (let k = 0; k < runs; k++) {
    const t = performance.now();
    project();
    floor();
    floorFirst.push(performance.now() - t);
  }
  const floorRedraw: number[] = [];
  for (const p of pans) {
    map.panBy(p, { animate: false });
    const t = performance.now();
    floor();
    floorRedraw.push(performance.now() - t);
  }
  canvas.remove();
  map.remove();
  return {
    n,
    drawn,
    oursFirstMs: median(oursFirst),
    oursRedrawMs: median(oursRedraw),
    floorFirstMs: median(floorFirst),
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
