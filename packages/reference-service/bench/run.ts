/**
 * `pnpm bench` for the server: runs each benchmark in its own process, one after another
 * (they measure throughput, so they must not overlap). `--smoke` runs tiny sizes (CI).
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const BENCHES = [
  'orders-list.ts',
  'catalog-search.ts',
  'seed.ts',
  'quicklooks.ts',
  'scene-cog.ts',
  'other-tenants.ts',
];
const args = process.argv.slice(2);
const tsx = createRequire(import.meta.url).resolve('tsx/cli');
let failed = 0;
for (const bench of BENCHES) {
  const file = fileURLToPath(new URL(bench, import.meta.url));
  process.stdout.write(`\n=== server bench: ${bench} ${args.join(' ')}\n`);
  const r = spawnSync(process.execPath, [tsx, file, ...args], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
