/**
 * The page's work when a search's footprints arrive (issue 13, item 5), step by step, on
 * 100,000 footprints (2,000 with `--smoke`): decoding and checking the binary answer, the
 * store's id positions, packing (projecting) for the footprint layer and its clusters (with the
 * store's positions), its hit-test grid, and placing the quicklooks. The same modules the page runs, in Node's V8
 * (happy-dom for Leaflet's imports); drawing is not in it (bench/footprints.ts measures that in
 * Chromium). Medians of several runs; prints figures only, no verdict.
 *
 *   bash scripts/pnpm.sh --filter @eo/desktop exec tsx bench/footprint-arrival.ts [--smoke]
 */
import os from 'node:os';
import { median } from '@eo/bench-kit';
import { Window } from 'happy-dom';
import type { FootprintSet } from '../src/shared/contract';

const win = new Window();
Object.assign(globalThis, { window: win, document: win.document, navigator: win.navigator });
const { decodeFootprints, encodeFootprints, joinedIds } =
  await import('../src/shared/contract/footprints-wire');
const { packFootprintSet } = await import('../src/renderer/map/footprints');
const { IdPositions } = await import('../src/renderer/stores/id-positions');
// By a computed path: the layer's DOM types are outside this (Node) tsconfig.
const quicklookLayerModule = '../src/renderer/map/quicklook-layer';
const { QuicklookLayer } = (await import(quicklookLayerModule)) as {
  QuicklookLayer: new (urlOf: () => null) => {
    setFootprintSet(set: FootprintSet): void;
  };
};
const { GridIndex } = await import('../src/renderer/map/spatial-index');
const { footprints } = await import('./pages/map/synthetic-footprints');

const smoke = process.argv.includes('--smoke');
const N = smoke ? 2_000 : 100_000;
const RUNS = smoke ? 3 : 9;

const { ids, rings } = footprints(N);
const offsets = new Uint32Array(N + 1);
for (let i = 0; i < N; i++) offsets[i + 1] = offsets[i]! + 4;
const coords = new Float32Array(offsets[N]! * 2);
for (let i = 0; i < N; i++) coords.set(rings[i]!.slice(0, 8), i * 8);
const bytes = encodeFootprints({ ...joinedIds(ids), offsets, coords });

const steps = new Map<string, number[]>();
function step<T>(name: string, work: () => T): T {
  const t0 = performance.now();
  const out = work();
  steps.set(name, [...(steps.get(name) ?? []), performance.now() - t0]);
  return out;
}
for (let run = 0; run < RUNS; run++) {
  const answer = bytes.slice();
  step('total', () => {
    const set = step('decode and check', () => decodeFootprints(answer));
    // Mapped on the first lookup (none before the first draw).
    const positions = step('store: id positions', () => new IdPositions(set.ids));
    // The clusters read the packed boxes: no projection of their own.
    const packed = step('pack (project)', () => packFootprintSet(set, positions));
    step('hit-test grid (first hit test)', () => new GridIndex(packed.boxes));
    const quicklooks = new QuicklookLayer(() => null);
    step('quicklooks placed', () => quicklooks.setFootprintSet(set));
  });
}
console.log(
  `footprint arrival: ${N.toLocaleString('en')} footprints, median of ${RUNS} (load ${os.loadavg()[0]!.toFixed(1)})`,
);
for (const [name, times] of steps)
  console.log(`  ${name.padEnd(32)} ${median(times).toFixed(1)} ms`);
