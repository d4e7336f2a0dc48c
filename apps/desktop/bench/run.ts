/**
 * `pnpm bench` for @eo/desktop: builds the app once, then runs each benchmark in its own
 * process, one after another (they measure time, so they must not overlap). `--smoke` runs
 * tiny sizes (CI: proves each bench still runs; figures come from the full run).
 *
 *   bash scripts/pnpm.sh --filter @eo/desktop bench          # full sizes (minutes)
 *   bash scripts/pnpm.sh --filter @eo/desktop bench:smoke    # about a minute
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const here = path.dirname(fileURLToPath(import.meta.url));
const appDir = path.resolve(here, '..');
/** Each bench with the flags it needs; the build below serves those given --no-build. */
const BENCHES: Array<[string, string[]]> = [
  ['initial-js.ts', ['--no-build']],
  ['footprints.ts', []],
  ['quicklooks.ts', []],
  ['pan.ts', []],
  ['raster-pan.ts', []],
  ['raster-frames.ts', []],
  ['raster-index.ts', []],
  ['raster-first-picture.ts', []],
  ['backend-search.ts', []],
  ['cold-start.ts', ['--no-build']],
  ['ui.ts', ['--no-build']],
  ['outbox-submit.ts', ['--no-build']],
];

const tsx = createRequire(import.meta.url).resolve('tsx/cli');
const t0 = performance.now();
process.stdout.write('=== desktop bench: electron-vite build\n');
const build = spawnSync(path.join(appDir, 'node_modules', '.bin', 'electron-vite'), ['build'], {
  cwd: appDir,
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (build.status !== 0) process.exit(1);
let failed = 0;
for (const [bench, flags] of BENCHES) {
  const file = path.join(here, bench);
  process.stdout.write(`\n=== desktop bench: ${bench} ${[...flags, ...args].join(' ')}\n`);
  const t = performance.now();
  const r = spawnSync(process.execPath, [tsx, file, ...flags, ...args], {
    cwd: appDir,
    stdio: 'inherit',
  });
  process.stdout.write(`(${bench}: ${((performance.now() - t) / 1000).toFixed(1)} s)\n`);
  if (r.status !== 0) failed++;
}
process.stdout.write(`\ndesktop benches: ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
process.exit(failed === 0 ? 0 : 1);
