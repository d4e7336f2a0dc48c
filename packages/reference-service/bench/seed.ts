/**
 * Benchmark: `eo-server seed --scenes 1000000`, i.e. generating one million deterministic
 * archive scenes and inserting them (with their R*Tree entries and the demo catalog records)
 * into a fresh database. Prints the time, the scenes per second and the database size.
 *
 *   bash scripts/pnpm.sh --filter @eo/reference-service exec tsx bench/seed.ts [--smoke]
 *
 * `--smoke`: 5,000 scenes (checks the bench works; not a figure).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { reportVerdict } from '@eo/bench-kit';
import { openDatabase } from '../src/db/client';
import { seedDemo } from '../src/seed/demo';
import { generateScenes } from '../src/seed/scenes';

const smoke = process.argv.includes('--smoke');
const SCENES = smoke ? 5_000 : 1_000_000;
const log = (s: string) => process.stderr.write(`${s}\n`);

// Generation alone, to tell the generator's share from SQLite's.
const g0 = performance.now();
let n = 0;
for (const _ of generateScenes({ count: Math.min(SCENES, 100_000), assets: false })) n++;
const genPerScene = (performance.now() - g0) / n;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-bench-seed-'));
const file = path.join(dataDir, 'eo.sqlite');
const db = openDatabase(file);
const t0 = performance.now();
const r = seedDemo(db.sqlite, {
  nowMs: Date.now(),
  scenes: SCENES,
  onProgress: (k) => log(`  ${k} scenes, ${((performance.now() - t0) / 1000).toFixed(1)} s`),
});
const seconds = (performance.now() - t0) / 1000;
db.sqlite.pragma('wal_checkpoint(TRUNCATE)');
db.close();
const bytes = fs
  .readdirSync(dataDir)
  .reduce((sum, f) => sum + fs.statSync(path.join(dataDir, f)).size, 0);
fs.rmSync(dataDir, { recursive: true, force: true });

process.stdout.write(
  [
    `seed bench${smoke ? ' (smoke sizes, not a figure)' : ''}: ${r.scenesAdded} scenes + ${r.catalogAdded} demo catalog records`,
    `  time: ${seconds.toFixed(1)} s (${Math.round(r.scenesAdded / seconds)} scenes/s; generation alone ${(genPerScene * 1000).toFixed(0)} µs/scene)`,
    `  database: ${(bytes / 1e6).toFixed(0)} MB (${Math.round(bytes / r.scenesAdded)} bytes/scene, indexes and R*Tree included)`,
  ].join('\n') + '\n',
);
// A figure for the README, not a gate: nothing depends on how fast the bench data is made.
reportVerdict('seed', [
  { what: 'scenes/s', value: r.scenesAdded / seconds, digits: 0 },
  { what: 'bytes/scene', value: bytes / r.scenesAdded, digits: 0 },
]);
