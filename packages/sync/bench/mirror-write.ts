/**
 * Mirror write throughput: catalog records upserted by a pass, one transaction per 100-record
 * page (the baseline) against the engine's batches of 1000 records, on a real file database
 * (WAL, synchronous=FULL as the app opens it). Records are the real service's demo records,
 * copied under new ids to reach the volume.
 *
 *   bash scripts/pnpm.sh --filter @eo/sync exec tsx bench/mirror-write.ts [--smoke]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEoClient } from '@eo/api-client';
import { reportVerdict } from '@eo/bench-kit';
import { seedDemo, startServer } from '@eo/reference-service';
import { openMirrorDatabase } from '../src/db/open';
import { makeMirrorWriters } from '../src/mirror/writers';

const smoke = process.argv.includes('--smoke');
const COPIES = smoke ? 4 : 40;
const ROUNDS = smoke ? 1 : 3;

async function demoRecords(): Promise<Array<Record<string, unknown>>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-sync-bench-service-'));
  const server = await startServer({ dataDir, logLevel: false, stepDelayMs: 0, workerTickMs: 0 });
  try {
    const key = seedDemo(server.app.ctx.sqlite, { nowMs: Date.now(), scenes: 10_000 }).demoKey!;
    const client = createEoClient({ baseUrl: server.url, apiKey: key });
    const out: Array<Record<string, unknown>> = [];
    for await (const page of client.pages.catalogs({}, { pageSize: 500 }))
      out.push(...(page.items as Array<Record<string, unknown>>));
    return out;
  } finally {
    await server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function run(records: Array<Record<string, unknown>>, perTransaction: number): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-sync-bench-'));
  const db = openMirrorDatabase(path.join(dir, 'mirror.db'));
  try {
    const writer = makeMirrorWriters(db.sqlite).catalogs;
    const commit = db.sqlite.transaction((batch: unknown[]) => writer.write(batch, 'pass'));
    const start = process.hrtime.bigint();
    for (let i = 0; i < records.length; i += perTransaction)
      commit(records.slice(i, i + perTransaction));
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    return records.length / (ms / 1000);
  } finally {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const base = await demoRecords();
const records = Array.from({ length: COPIES }, (_, c) =>
  base.map((r) => ({ ...r, id: `${String(r.id)}-copy${c}` })),
).flat();
console.log(
  `mirror-write: ${records.length} catalog records, ${ROUNDS} round(s)${smoke ? ' (smoke)' : ''}`,
);
const best = (per: number) => Math.max(...Array.from({ length: ROUNDS }, () => run(records, per)));
const perPage = best(100);
const batched = best(1000);
console.log(`  one transaction per 100-record page: ${perPage.toFixed(0)} records/s (baseline)`);
console.log(`  one transaction per 1000 records:    ${batched.toFixed(0)} records/s`);
// The figure behind the batching default; not a gate.
reportVerdict('mirror-write', [
  { what: 'batched / transaction per page records/s', value: batched / perPage },
]);
