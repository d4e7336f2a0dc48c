/**
 * `pnpm bench` for @eo/sync: each benchmark in its own process, one after another (they measure
 * throughput, so they must not overlap). `--smoke` runs tiny sizes (CI: checks the benches
 * work, not a figure). Generated data is cached in /tmp/eo-sync-bench-cache (see common.ts).
 *
 *   bash scripts/pnpm.sh --filter @eo/sync bench          # full sizes (minutes; first run builds data)
 *   bash scripts/pnpm.sh --filter @eo/sync bench:smoke    # seconds
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const smoke = args.includes('--smoke');
/** [file, NODE_OPTIONS]: the search bench holds a million parsed records for its scan. */
const BENCHES: Array<[string, string]> = [
  ['first-sync.ts', ''],
  // Where the first sync's client CPU goes, stage by stage, beside the floor's (V8 profiler).
  ['sync-stages.ts', ''],
  ['offline-search.ts', '--max-old-space-size=8192'],
  // Bytes per catalog record and search, the compact catalog against the JSON one.
  ['catalog-disk.ts', ''],
  // The catalog at scale (1,000,000 records here; `--records 10000000` run by hand): disk,
  // search p95, the backend's cold start and memory on it.
  ['catalog-scale.ts', ''],
  ['flush.ts', ''],
  // First sync and re-sync through a simulated 2 Mbit/s and 20 Mbit/s link (compression, round trips).
  ['wire.ts', ''],
  // The first imagery pass (thumbnails) through the same links, against the link's floor.
  ['quicklooks-wire.ts', ''],
  // A site's window of a scene COG by HTTP ranges through the 2 Mbit/s link, against its floor.
  ['site-window.ts', ''],
  // Figures behind the batching (commit per page against batches); not in smoke.
  ...(smoke
    ? []
    : ([
        ['pull.ts', ''],
        ['mirror-write.ts', ''],
      ] as Array<[string, string]>)),
];
const tsx = createRequire(import.meta.url).resolve('tsx/cli');
let failed = 0;
const t0 = performance.now();
for (const [bench, nodeOptions] of BENCHES) {
  const file = fileURLToPath(new URL(bench, import.meta.url));
  process.stdout.write(`\n=== sync bench: ${bench} ${args.join(' ')}\n`);
  const env = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} ${nodeOptions}` };
  const t = performance.now();
  const r = spawnSync(process.execPath, [tsx, file, ...args], { stdio: 'inherit', env });
  process.stdout.write(`(${bench}: ${((performance.now() - t) / 1000).toFixed(1)} s)\n`);
  if (r.status !== 0) failed++;
}
process.stdout.write(`\nsync benches: ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
process.exit(failed === 0 ? 0 : 1);
