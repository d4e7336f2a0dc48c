/**
 * The page `bench/pan.ts` opens in Chromium: a 1280x800 map at zoom 6 over Europe with the
 * offline basemap (land, water, borders; place names and the graticule) and N footprints, panned
 * by mouse drags as a user does (mousedown, one mousemove per frame on the map, mouseup; no
 * inertia, so the redraw at the end of each drag falls in the measured frames). A frame's time
 * is the interval between two animation frames. The baseline is the same drags with the
 * basemap only (the footprint layer removed), interleaved with the full ones in the same run.
 * Query: ?n=10000&drags=6&frames=30. Result: window.__benchResult (or __benchError).
 */
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { FootprintLayer } from '../../../src/renderer/map/footprint-layer';
import { createOfflineBasemap } from '../../../src/renderer/map/offline-basemap';
import { footprints } from '../map/synthetic-footprints';
import type { PanFigures } from './figures';
import { drag, nextFrame } from '../drag';

/** Where the page publishes its result (not the footprint bench's `__benchResult` type). */
const published = window as unknown as { __benchResult?: PanFigures; __benchError?: string };

/** Our own work in the event handlers: per mousemove, and the mouseup's redraw (ms). */
const work = { moves: [] as number[], ends: [] as number[], endsBaseline: [] as number[] };
let recording: 'full' | 'baseline' = 'full';

/** A drag of `frames` steps, the mouseup's redraw and 2 frames after; our handlers timed. */
const panBy = (el: HTMLElement, frames: number, step: number) =>
  drag(
    el,
    { frames, dx: step, dy: 0, framesAfter: 2 },
    {
      onMove: (ms) => {
        if (recording === 'full') work.moves.push(ms);
      },
      onEnd: (ms) => (recording === 'full' ? work.ends : work.endsBaseline).push(ms),
    },
  );

async function measure(n: number, drags: number, frames: number): Promise<PanFigures> {
  const el = document.getElementById('map') as HTMLDivElement;
  const map = L.map(el, {
    center: [47, 10],
    zoom: 6,
    inertia: false,
    zoomAnimation: false,
    fadeAnimation: false,
  });
  const basemap = createOfflineBasemap(map, { detailed: true });
  await basemap.idle();
  const { ids, rings } = footprints(n);
  const layer = new FootprintLayer().addTo(map);
  layer.setFootprints(ids, rings);
  // Settle: first draws and the data loads the zoom asked for are not part of a pan.
  for (let i = 0; i < 10; i++) await nextFrame();
  await basemap.idle();
  const full: number[] = [];
  const baseline: number[] = [];
  for (let k = 0; k < drags; k++) {
    // Right then left, so the view stays over the footprints.
    const step = k % 2 ? -12 : 12;
    layer.remove();
    await nextFrame();
    recording = 'baseline';
    baseline.push(...(await panBy(el, frames, step)));
    layer.addTo(map);
    await nextFrame();
    await nextFrame();
    recording = 'full';
    full.push(...(await panBy(el, frames, -step)));
    map.setView([47, 10], 6, { animate: false });
    await nextFrame();
  }
  const places = (
    el.querySelector('.eo-canvas-view[data-places]')?.getAttribute('data-places') ?? ''
  )
    .split('|')
    .filter(Boolean).length;
  return { n, drags, full, baseline, places, ...work };
}

const q = new URLSearchParams(location.search);
const n = Number(q.get('n') ?? 10_000);
const drags = Number(q.get('drags') ?? 6);
const frames = Number(q.get('frames') ?? 30);
setTimeout(() => {
  measure(n, drags, frames).then(
    (r) => (published.__benchResult = r),
    (e: unknown) =>
      (published.__benchError = e instanceof Error ? `${e.message}\n${e.stack}` : String(e)),
  );
}, 0);
