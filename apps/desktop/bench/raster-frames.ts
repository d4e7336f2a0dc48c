/**
 * Offline raster frames (issue 24): frame times in headless Chromium (software raster) while a
 * 4,096 x 4,096 four-band window is panned by mouse drags at each zoom from the fitted one past
 * the native resolution, with the offline basemap and footprints on, the raster drawn by the
 * app's raster worker (decoded and painted off the page's thread, with its read-ahead), its
 * bytes by range from the backend's raster route on 127.0.0.1 (the page:
 * bench/pages/raster-pan). Target: p95 frame time under 33 ms (30 frames a
 * second); a miss exits 1. The baseline, the same drags with the raster layer off (basemap and
 * footprints only), is measured in the same run (interleaved) and printed as a ratio.
 *
 * `--trace FILE` also writes a Chromium trace of the run and prints where each phase's CPU went
 * (bench/trace-summary.ts): the page's main thread's top costs with the raster on and off.
 *
 *   bash scripts/pnpm.sh --filter @eo/desktop exec tsx bench/raster-frames.ts [--smoke] [--trace FILE]
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { reportVerdict } from '@eo/bench-kit';
import { basemapData } from '../vite/basemap-data';
import { runBenchPage } from './chromium-page';
import { machine, percentile, serveSite } from './raster-site';
import { describeCosts, summariseTrace } from './trace-summary';
import type { RasterPanFigures } from './pages/raster-pan/figures';

const smoke = process.argv.includes('--smoke');
/** `--trace FILE`: a Chromium trace of the run, summarised after it (bench/trace-summary.ts). */
const traceAt = process.argv.indexOf('--trace');
const trace =
  traceAt > 0 ? path.resolve(process.argv[traceAt + 1] ?? 'raster-frames.trace.json') : undefined;
const SIDE = smoke ? 1024 : 4096;
const ZOOMS = smoke ? 2 : 4;
const DRAGS = smoke ? 2 : 4;
const FRAMES = 30;
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, './pages/raster-pan');

const served = await serveSite(SIDE);
const before = machine();
const [w, s, e, n] = served.bounds;
let f: RasterPanFigures;
try {
  f = await runBenchPage<RasterPanFigures>({
    root,
    query: new URLSearchParams({
      url: served.url,
      ...{ w: String(w), s: String(s), e: String(e), n: String(n) },
      z: String(served.fit),
      zooms: String(ZOOMS),
      drags: String(DRAGS),
      frames: String(FRAMES),
    }).toString(),
    plugins: [basemapData()],
    trace,
  });
} finally {
  await served.close();
}
const fmt = (a: readonly number[]) =>
  `p50 ${percentile(a, 50).toFixed(1)} ms, p95 ${percentile(a, 95).toFixed(1)} ms, max ${Math.max(...a).toFixed(1)} ms`;
const p95 = percentile(f.raster, 95);
console.log(
  `raster frames: ${SIDE}x${SIDE} four-band window (${(served.site.bytes / 1e6).toFixed(1)} MB), 1280x800, zooms ${f.zooms.join(', ')}, ${f.drags} drags of ${FRAMES} frames each, offline basemap and ${f.footprints} footprints on, ${f.painted} raster tiles painted, headless Chromium (software raster)${smoke ? ' (smoke)' : ''}; ${before} before, ${machine()} after`,
);
console.log(`  raster on:              ${fmt(f.raster)} (${f.raster.length} frames)`);
console.log(`  baseline, raster off:   ${fmt(f.baseline)} (${f.baseline.length} frames)`);
console.log(`  p95 ratio raster on / off: ${(p95 / percentile(f.baseline, 95)).toFixed(2)}x`);
if (trace) {
  console.log(`  trace: ${trace}`);
  for (const line of describeCosts(summariseTrace(trace))) console.log(line);
}
reportVerdict(
  'raster-frames',
  [
    {
      what: 'p95 frame time while panning the raster',
      value: p95,
      atMost: 33,
      unit: 'ms',
      digits: 1,
    },
  ],
  { smoke },
);
