/**
 * Offline raster pan and zoom benchmark (issue 24): a 4,096 x 4,096 four-band window (the
 * stored format, 10 m, UTM 32N) drawn on a 1280x800 map by the raster worker's engine
 * (RasterEngine, run in Node: the worker only carries its messages), its bytes by HTTP range
 * from the backend's raster route on 127.0.0.1. The map is fitted to the window, zoomed in step
 * by step past the native resolution, panned by drags of 320 px at each zoom, and zoomed out:
 * every map tile a move brings into view is painted (false colour, the window's own stretch),
 * cold (a new engine per round: each tile decoded from the file, as on a first visit). Target:
 * p95 tile time under 33 ms (a tile ready within a frame at 30 frames a second; the page's own
 * frames never wait on the worker). The baseline, measured in the same run (interleaved), is a
 * hand-written loop painting a 256-px tile from three uint16 planes through the same lookup
 * tables without reprojection or decoding: the floor of a tile; printed as a ratio.
 *
 *   bash scripts/pnpm.sh --filter @eo/desktop exec tsx bench/raster-pan.ts [--smoke]
 */
import { reportVerdict } from '@eo/bench-kit';
import { RasterEngine } from '../src/renderer/features/rasters/raster-engine';
import { httpRangeSource } from '../src/renderer/features/rasters/raster-source';
import { stretchLut, type RasterStyle } from '../src/renderer/features/rasters/raster-style';
import { machine, percentile, serveSite, tilesOf, viewAt, type View } from './raster-site';

const smoke = process.argv.includes('--smoke');
const SIDE = smoke ? 1024 : 4096;
const ROUNDS = smoke ? 1 : 5;
const DRAGS = smoke ? 2 : 6;

const served = await serveSite(SIDE);
const {
  site,
  centre: [lon, lat],
  fit,
} = served;

/** The moves: fit, zoom in step by step (3 past fit reaches the native 10 m), drags, zoom out. */
function views(): View[] {
  const out: View[] = [];
  for (let z = fit; z <= fit + 4; z++) {
    const v = viewAt(lon, lat, z);
    out.push(v);
    // Drags east then south, then back west.
    for (let d = 1; d <= DRAGS; d++) {
      const dx = d <= DRAGS / 2 ? 320 * d : 320 * (DRAGS / 2);
      const dy = d <= DRAGS / 2 ? 0 : 320 * (d - DRAGS / 2);
      out.push({ ...v, cx: v.cx + dx, cy: v.cy + dy });
    }
  }
  for (let z = fit + 3; z >= fit; z--) out.push(viewAt(lon, lat, z));
  return out;
}

/** One round: a new engine, every move's new tiles painted in turn; each tile's time. */
async function round(): Promise<{ tiles: number[]; moves: number[]; painted: number }> {
  const engine = new RasterEngine();
  await engine.open('site', await httpRangeSource(served.url));
  const stats = await engine.bandStats('site');
  const st = (b: number) => [stats[b]!.low, stats[b]!.high] as [number, number];
  const style: RasterStyle = { kind: 'bands', bands: [3, 2, 1], stretch: [st(3), st(2), st(1)] };
  const shown = new Set<string>();
  const tiles: number[] = [];
  const moves: number[] = [];
  let painted = 0;
  for (const v of views()) {
    const inView = tilesOf(v);
    let move = 0;
    for (const [key, tile] of inView) {
      if (shown.has(key)) continue;
      const t0 = performance.now();
      const rgba = await engine.renderTile('site', tile, style);
      const t = performance.now() - t0;
      if (rgba) {
        tiles.push(t);
        painted++;
      }
      move += t;
    }
    moves.push(move);
    shown.clear();
    for (const k of inView.keys()) shown.add(k);
  }
  engine.close('site');
  return { tiles, moves, painted };
}

/** The floor: a 256-px tile from three uint16 planes through lookup tables, no reprojection. */
const planes = [0, 1, 2].map(() =>
  Uint16Array.from({ length: 512 * 512 }, (_, i) => 200 + ((i * 2654435761) >>> 20)),
);
const luts = [stretchLut(200, 4000), stretchLut(200, 4000), stretchLut(200, 4000)];
function floorTile(offset: number): Uint8ClampedArray {
  const out = new Uint8ClampedArray(256 * 256 * 4);
  const [r, g, b] = planes as [Uint16Array, Uint16Array, Uint16Array];
  const [lr, lg, lb] = luts as [Uint8Array, Uint8Array, Uint8Array];
  for (let y = 0; y < 256; y++)
    for (let x = 0; x < 256; x++) {
      const j = ((y + offset) % 512) * 512 + ((x * 3 + offset) % 512);
      const o = (y * 256 + x) * 4;
      out[o] = lr[r[j]!]!;
      out[o + 1] = lg[g[j]!]!;
      out[o + 2] = lb[b[j]!]!;
      out[o + 3] = 255;
    }
  return out;
}
function floorRound(count: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    floorTile(i);
    out.push(performance.now() - t0);
  }
  return out;
}

const before = machine();
const tiles: number[] = [];
const moves: number[] = [];
const floor: number[] = [];
let painted = 0;
const cpu0 = process.cpuUsage();
for (let r = 0; r < ROUNDS; r++) {
  const got = await round();
  tiles.push(...got.tiles);
  moves.push(...got.moves);
  painted = got.painted;
  floor.push(...floorRound(got.painted));
}
const cpu = process.cpuUsage(cpu0);
await served.close();

const fmt = (a: readonly number[]) =>
  `p50 ${percentile(a, 50).toFixed(1)} ms, p95 ${percentile(a, 95).toFixed(1)} ms, max ${Math.max(...a).toFixed(1)} ms`;
const p95 = percentile(tiles, 95);
console.log(
  `raster pan: ${SIDE}x${SIDE} four-band window (${(site.bytes / 1e6).toFixed(1)} MB), 1280x800 map, zoom ${fit} (fitted) to ${fit + 4}, ${DRAGS} drags of 320 px per zoom, ${painted} tiles painted per round, ${ROUNDS} rounds cold${smoke ? ' (smoke)' : ''}; ${before} before, ${machine()} after`,
);
console.log(`  engine tile (decode + reproject + paint): ${fmt(tiles)} (${tiles.length} tiles)`);
console.log(`  per move, all its new tiles in turn:     ${fmt(moves)} (${moves.length} moves)`);
console.log(`  baseline, hand-written tile floor:       ${fmt(floor)} (${floor.length} tiles)`);
console.log(
  `  CPU time of this process, mean per engine tile (what an idle core would take, roughly; the floor and the route included): ${((cpu.user + cpu.system) / 1000 / tiles.length).toFixed(1)} ms`,
);
console.log(`  p95 ratio engine / floor: ${(p95 / percentile(floor, 95)).toFixed(1)}x`);
reportVerdict(
  'raster-pan',
  [
    {
      what: 'p95 tile time while panning and zooming',
      value: p95,
      atMost: 33,
      unit: 'ms',
      digits: 1,
    },
    {
      what: 'p95 time of a move (all its new tiles)',
      value: percentile(moves, 95),
      unit: 'ms',
      digits: 1,
    },
  ],
  { smoke },
);
