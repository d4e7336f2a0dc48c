/**
 * Map benchmark of the quicklooks (issue 15): 500 scene pictures in view on a 1280x800 map in
 * headless Chromium, drawn warped on their footprints by the QuicklookLayer (its cap raised to
 * 500 for this: the app draws at most MAX_QUICKLOOKS), while the map is panned and zoomed as a
 * user would (animated). Frame times are every interval between animation frames; the target is
 * p95 under 33 ms (30 frames a second). The baseline is the same map, footprints and moves
 * without the quicklooks, in the same run (two sessions of each, interleaved, so load drift
 * hits both): printed as a ratio. The JS heap after a forced GC is read after every cycle:
 * bounded means it does not grow from cycle to cycle (at most 8 MB from the first reading to
 * the last) and stays under 96 MB. A pan at the same zoom moves the drawn canvas and draws only
 * what came into view: after the cycles, that canvas is checked against a whole redraw (at
 * most 0.1 % of pixels differ). A miss exits 1.
 *
 *   bash scripts/pnpm.sh --filter @eo/desktop exec tsx bench/quicklooks.ts [--smoke]
 *
 * The page is bench/pages/map/quicklooks-page.ts (bench/chromium-page.ts builds and opens it).
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { reportVerdict } from '@eo/bench-kit';
import type { Session } from './pages/map/quicklooks-session';
import { runBenchPage } from './chromium-page';

const smoke = process.argv.includes('--smoke');
const N = smoke ? 60 : 500;
const CYCLES = smoke ? 2 : 6;
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, './pages/map');
const MB = 1024 * 1024;

const p95 = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.95))] ?? NaN;
};
const med = (xs: readonly number[]) =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

const load = os.loadavg()[0]!;
const sessions = await runBenchPage<Session[]>({
  root,
  query: `bench=quicklooks&n=${N}&cycles=${CYCLES}`,
  chromiumArgs: ['--js-flags=--expose-gc', '--enable-precise-memory-info'],
});
const loadAfter = os.loadavg()[0]!;

const withQ = sessions.filter((s) => s.quicklooks);
const without = sessions.filter((s) => !s.quicklooks);
const frames = (ss: Session[]) => ss.flatMap((s) => s.frames);
const redraws = (ss: Session[]) => ss.flatMap((s) => s.redraws);
const heap = withQ.flatMap((s) => s.heap);
const ours = p95(frames(withQ));
const base = p95(frames(without));

console.log(
  `quicklooks: ${N} pictures in view (${withQ.map((s) => s.drawn).join(', ')} drawn), 1280x800, zoom 7, headless Chromium (software raster);` +
    ` ${CYCLES} cycles of 4 pans and 2 zooms per kind, sessions interleaved${smoke ? ' (smoke)' : ''}`,
);
console.log(
  `  load average (1 min) ${load.toFixed(1)} before, ${loadAfter.toFixed(1)} after, ${os.cpus().length} cores`,
);
for (const [what, ss] of [
  ['with quicklooks', withQ],
  ['baseline (no quicklooks)', without],
] as const) {
  const f = frames(ss);
  const r = redraws(ss);
  console.log(
    `  ${what}: ${f.length} frames, median ${med(f).toFixed(1)} ms, p95 ${p95(f).toFixed(1)} ms, max ${Math.max(...f).toFixed(1)} ms;` +
      ` ${r.length} layer redraws (raster included), median ${med(r).toFixed(1)} ms, p95 ${p95(r).toFixed(1)} ms`,
  );
}
console.log(
  `  JS heap after GC, per cycle (MB): ${heap.map((h) => (h / MB).toFixed(1)).join(', ')}`,
);

reportVerdict(
  'quicklooks',
  [
    { what: `${N} quicklooks: frame time p95`, value: ours, atMost: 33, unit: 'ms', digits: 1 },
    { what: 'frame time p95 / baseline without quicklooks', value: ours / base, unit: '×' },
    {
      what: 'JS heap growth, first to last cycle',
      value: (Math.max(...heap.slice(-2)) - heap[0]!) / MB,
      atMost: 8,
      unit: 'MB',
      digits: 1,
    },
    {
      what: 'JS heap, largest reading',
      value: Math.max(...heap) / MB,
      atMost: 96,
      unit: 'MB',
      digits: 1,
    },
    {
      what: 'pixels differing, redraw after a pan vs whole redraw',
      value: Math.max(...withQ.map((s) => s.panMismatch)) * 100,
      atMost: 0.1,
      unit: '%',
      digits: 3,
    },
  ],
  { smoke },
);
