/**
 * A catalog pass against the real service on 127.0.0.1, 100-record pages: records/s of a full
 * sync with one commit per page (baseline) against batches of 1000 records (or the engine's time
 * budget), each into a fresh mirror file. The service holds the demo org's 500 catalog records,
 * so the figure includes HTTP, response validation and the mirror writes.
 *
 *   bash scripts/pnpm.sh --filter @eo/sync exec tsx bench/pull.ts [--smoke]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEoClient } from '@eo/api-client';
import { reportVerdict } from '@eo/bench-kit';
import { seedDemo, startServer } from '@eo/reference-service';
import { openMirrorDatabase } from '../src/db/open';
import { createSyncEngine } from '../src/pull/engine';

const smoke = process.argv.includes('--smoke');
const ROUNDS = smoke ? 1 : 5;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-sync-bench-pull-'));
const server = await startServer({ dataDir, logLevel: false, stepDelayMs: 0, workerTickMs: 0 });
try {
  const key = seedDemo(server.app.ctx.sqlite, {
    nowMs: Date.now(),
    scenes: smoke ? 2000 : 10_000,
  }).demoKey!;
  const client = createEoClient({ baseUrl: server.url, apiKey: key });

  const pass = async (batchRecords: number): Promise<number> => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-sync-bench-mirror-'));
    const db = openMirrorDatabase(path.join(dir, 'mirror.db'));
    try {
      const engine = createSyncEngine({ db, client, pageSize: 100, batchRecords });
      const start = process.hrtime.bigint();
      await engine.sync({ resources: ['catalogs'] });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      return engine.status()[0]!.seen / (ms / 1000);
    } finally {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  const best = async (batch: number) => {
    let top = 0;
    for (let i = 0; i < ROUNDS; i++) top = Math.max(top, await pass(batch));
    return top;
  };
  await pass(1000); // warm-up (JIT, the service's statement cache)
  const perPage = await best(100);
  const batched = await best(1000);
  console.log(`pull: catalog pass, best of ${ROUNDS}${smoke ? ' (smoke)' : ''}`);
  console.log(`  commit per 100-record page: ${perPage.toFixed(0)} records/s (baseline)`);
  console.log(`  batches of 1000 records:    ${batched.toFixed(0)} records/s`);
  // The figure behind the batching default; not a gate.
  reportVerdict('pull', [
    { what: 'batched / commit per page records/s', value: batched / perPage },
  ]);
} finally {
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
