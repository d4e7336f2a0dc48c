/**
 * Offline raster pan and zoom benchmark (issue 24): a 4,096 x 4,096 four-band window (the
 * stored format, 10 m, UTM 32N) drawn on a 1280x800 map by the raster worker's engine
 * (RasterEngine, run in Node: the worker only carries its messages), its bytes by HTTP range
 * from the backend's raster route on 127.0.0.1. The map is fitted to the window, zoomed in step
 * by step past the native resolution, panned by drags of 320 px at each zoom, and zoomed out:
 * every map tile a move brings into view is painted (false colour, the window's own stretch).
 * Each round starts with a new engine (nothing decoded) and goes as the app does: after each
 * move the map tells the worker its view and the worker decodes ahead of it while idle
 * (raster-read-ahead.ts); the bench lets that read-ahead finish before the next move (a pause
 * between gestures) and prints how long it took, i.e. how long a pause it needs. Target: p95 tile
 * time under 33 ms (a tile ready within a frame at 30 frames a second; the page's own frames
 * never wait on the worker). Beside it, in the same run (interleaved): the same moves without
 * read-ahead (every tile decoded when a move first reaches it: the figure before read-ahead),
 * and the baseline, a hand-written loop painting a 256-px tile from three uint16 planes through
 * the same lookup tables without reprojection or decoding: the floor of a tile, as a ratio.
 *
 *   bash scripts/pnpm.sh --filter @eo/desktop exec tsx bench/raster-pan.ts [--smoke]
 */
import { reportVerdict } from '@eo/bench-kit';
import { RasterEngine } from '../src/renderer/capabilities/rasters/raster-engine';
import { httpRangeSource } from '../src/renderer/capabilities/rasters/raster-source';
import { stretchLut, type RasterStyle } from '../src/renderer/capabilities/rasters/raster-style';
import {
  machine,
  percentile,
  serveSite,
  tilesOf,
  viewArea,
  viewAt,
  type View,
} from './raster-site';

const smoke = process.argv.includes('--smoke');
const SIDE = smoke ? 1024 : 4096;
const ROUNDS = smoke ? 1 : 4;
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

/**
 * One round: a new engine, every move's new tiles painted in turn; each tile's time. With
 * `readAhead`, after each move the view's read-ahead runs to its end (its time kept).
 */
async function round(readAhead: boolean): Promise<{
  tiles: number[];
  moves: number[];
  ahead: number[];
  painted: number;
  waited: number;
  cpu: number[];
}> {
  const engine = new RasterEngine();
  const source = await httpRangeSource(served.url);
  await engine.open('site', source);
  const stats = await engine.bandStats('site');
  const st = (b: number) => [stats[b]!.low, stats[b]!.high] as [number, number];
  const style: RasterStyle = { kind: 'bands', bands: [3, 2, 1], stretch: [st(3), st(2), st(1)] };
  const shown = new Set<string>();
  const tiles: number[] = [];
  const moves: number[] = [];
  const ahead: number[] = [];
  let painted = 0;
  /** Tiles that had to read (and decode) a source tile of the file first. */
  let waited = 0;
  /** Each tile's CPU time (this process: the route's share is nil once nothing is read). */
  const cpu: number[] = [];
  for (const v of views()) {
    const inView = tilesOf(v);
    let move = 0;
    for (const [key, tile] of inView) {
      if (shown.has(key)) continue;
      const t0 = performance.now();
      const reads = source.reads;
      const c0 = process.cpuUsage();
      const rgba = await engine.renderTile('site', tile, style);
      const t = performance.now() - t0;
      if (rgba) {
        tiles.push(t);
        const c = process.cpuUsage(c0);
        cpu.push((c.user + c.system) / 1000);
        painted++;
        if (source.reads > reads) waited++;
      }
      move += t;
    }
    moves.push(move);
    shown.clear();
    for (const k of inView.keys()) shown.add(k);
    if (readAhead) {
      const t0 = performance.now();
      await engine.readAhead('site', viewArea(v));
      ahead.push(performance.now() - t0);
    }
  }
  engine.close('site');
  return { tiles, moves, ahead, painted, waited, cpu };
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
/** With read-ahead (the app), without (every tile cold when first reached), and the floor. */
const tiles: number[] = [];
const moves: number[] = [];
const ahead: number[] = [];
const tileCpu: number[] = [];
const coldTiles: number[] = [];
const coldMoves: number[] = [];
const floor: number[] = [];
let painted = 0;
let waited = 0;
let coldWaited = 0;
const cpu0 = process.cpuUsage();
for (let r = 0; r < ROUNDS; r++) {
  const got = await round(true);
  tiles.push(...got.tiles);
  moves.push(...got.moves);
  ahead.push(...got.ahead);
  tileCpu.push(...got.cpu);
  painted = got.painted;
  waited += got.waited;
  const cold = await round(false);
  coldTiles.push(...cold.tiles);
  coldMoves.push(...cold.moves);
  coldWaited += cold.waited;
  floor.push(...floorRound(got.painted));
}
const cpu = process.cpuUsage(cpu0);
await served.close();

const fmt = (a: readonly number[]) =>
  `p50 ${percentile(a, 50).toFixed(1)} ms, p95 ${percentile(a, 95).toFixed(1)} ms, max ${Math.max(...a).toFixed(1)} ms`;
const p95 = percentile(tiles, 95);
console.log(
  `raster pan: ${SIDE}x${SIDE} four-band window (${(site.bytes / 1e6).toFixed(1)} MB), 1280x800 map, zoom ${fit} (fitted) to ${fit + 4}, ${DRAGS} drags of 320 px per zoom, ${painted} tiles painted per round, ${ROUNDS} rounds from a new engine each way${smoke ? ' (smoke)' : ''}; ${before} before, ${machine()} after`,
);
console.log(`  engine tile, read-ahead between moves:   ${fmt(tiles)} (${tiles.length} tiles)`);
console.log(
  `  tiles that read the file first (a source tile not decoded yet): ${waited} of ${tiles.length} with read-ahead, ${coldWaited} of ${coldTiles.length} without`,
);
console.log(
  `  CPU time of an engine tile with read-ahead (what a quiet core would take): ${fmt(tileCpu)}`,
);
console.log(`  per move, all its new tiles in turn:     ${fmt(moves)} (${moves.length} moves)`);
console.log(`  read-ahead after a move (pause needed):  ${fmt(ahead)} (${ahead.length} moves)`);
console.log(
  `  engine tile, no read-ahead (cold):       ${fmt(coldTiles)} (${coldTiles.length} tiles)`,
);
console.log(`  per move without read-ahead:             ${fmt(coldMoves)}`);
console.log(`  baseline, hand-written tile floor:       ${fmt(floor)} (${floor.length} tiles)`);
console.log(
  `  CPU time of this process, mean per engine tile over both ways (read-ahead, the floor and the route included): ${((cpu.user + cpu.system) / 1000 / (tiles.length + coldTiles.length)).toFixed(1)} ms`,
);
console.log(
  `  p95 ratios: read-ahead / floor ${(p95 / percentile(floor, 95)).toFixed(1)}x, read-ahead / cold ${(p95 / percentile(coldTiles, 95)).toFixed(2)}x`,
);
reportVerdict(
  'raster-pan',
  [
    {
      what: 'p95 tile time while panning and zooming (read-ahead between moves)',
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
    {
      what: 'p95 read-ahead after a move (the pause it needs)',
      value: percentile(ahead, 95),
      unit: 'ms',
      digits: 1,
    },
    {
      what: 'p95 tile time without read-ahead (cold)',
      value: percentile(coldTiles, 95),
      unit: 'ms',
      digits: 1,
    },
  ],
  { smoke },
);
