/**
 * First picture of an offline site (issue 24): from opening a 4,096 x 4,096 four-band window
 * to every map tile of its first view painted, as the app does it (rasters-store: the raster
 * worker opens the raster by HTTP range from the backend's raster route, computes each band's
 * default stretch, then the map, fitted to the window at 1280x800, asks its tiles). The engine
 * is the worker's (RasterEngine), run in Node; the route is the backend's, on 127.0.0.1. Each
 * sample is cold (a new engine, nothing decoded). Target: the median sample's whole first view
 * within 0.5 s; the first tile on screen and the slowest sample are printed beside it. The
 * baseline, in the same run, is the same view painted by an engine that has it all decoded
 * already (what is left once nothing is cold): printed as a ratio.
 *
 *   bash scripts/pnpm.sh --filter @eo/desktop exec tsx bench/raster-first-picture.ts [--smoke]
 */
import { median, reportVerdict } from '@eo/bench-kit';
import { RasterEngine } from '../src/renderer/capabilities/rasters/raster-engine';
import { httpRangeSource } from '../src/renderer/capabilities/rasters/raster-source';
import type { RasterStyle } from '../src/renderer/capabilities/rasters/raster-style';
import { machine, serveSite, tilesOf, viewAt } from './raster-site';

const smoke = process.argv.includes('--smoke');
const SIDE = smoke ? 1024 : 4096;
const SAMPLES = smoke ? 2 : 7;

const served = await serveSite(SIDE);
const {
  site,
  centre: [lon, lat],
  fit,
} = served;
const view = [...tilesOf(viewAt(lon, lat, fit)).values()];

/** Paints every tile of the view; the time of the first one with content. */
async function paintView(engine: RasterEngine, style: RasterStyle, t0: number) {
  let first = NaN;
  let painted = 0;
  await Promise.all(
    view.map(async (tile) => {
      if ((await engine.renderTile('site', tile, style)) === null) return;
      painted++;
      if (Number.isNaN(first)) first = performance.now() - t0;
    }),
  );
  return { first, painted };
}

/** A cold open: the whole first view's time, its first tile's, and the warm repaint's. */
async function sample() {
  const engine = new RasterEngine();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await engine.open('site', await httpRangeSource(served.url));
  const stats = await engine.bandStats('site');
  const st = (b: number) => [stats[b]!.low, stats[b]!.high] as [number, number];
  const style: RasterStyle = { kind: 'bands', bands: [2, 1, 0], stretch: [st(2), st(1), st(0)] };
  const { first, painted } = await paintView(engine, style, t0);
  const whole = performance.now() - t0;
  const used = process.cpuUsage(cpu0);
  const cpu = (used.user + used.system) / 1000;
  const w0 = performance.now();
  await paintView(engine, style, w0);
  const warm = performance.now() - w0;
  engine.close('site');
  return { whole, first, warm, painted, cpu };
}

const before = machine();
const samples = [];
for (let i = 0; i < SAMPLES; i++) samples.push(await sample());
await served.close();

const ms = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
const whole = samples.map((x) => x.whole);
const warm = median(samples.map((x) => x.warm));
console.log(
  `raster first picture: ${SIDE}x${SIDE} four-band window (${(site.bytes / 1e6).toFixed(1)} MB), 1280x800 map fitted at zoom ${fit}, ${samples[0]!.painted} tiles with content of ${view.length} in view, ${SAMPLES} cold samples${smoke ? ' (smoke)' : ''}; ${before} before, ${machine()} after`,
);
console.log(`  whole first view: ${ms(whole)} ms (median ${median(whole).toFixed(0)} ms)`);
console.log(
  `  CPU time of this process for it (what an idle core would take, roughly): ${ms(samples.map((x) => x.cpu))} ms`,
);
console.log(`  first tile:       ${ms(samples.map((x) => x.first))} ms`);
console.log(`  baseline, the same view warm (decoded already): median ${warm.toFixed(0)} ms`);
console.log(`  ratio cold / warm: ${(median(whole) / warm).toFixed(1)}x`);
reportVerdict(
  'raster-first-picture',
  [
    {
      what: 'first whole view, median of samples',
      value: median(whole) / 1000,
      atMost: 0.5,
      unit: 's',
    },
    { what: 'first whole view, slowest sample', value: Math.max(...whole) / 1000, unit: 's' },
    {
      what: 'first whole view, CPU time (median)',
      value: median(samples.map((x) => x.cpu)) / 1000,
      unit: 's',
    },
  ],
  { smoke },
);
