/**
 * First sync: a fresh mirror pulls `orders` and `catalogs` from the reference service (a child
 * process on 127.0.0.1) holding 100,000 catalog records and 10,000 orders. Prints records/s of
 * the engine (api-client pages, response validation, mirror writers, batched commits with
 * checkpoints) and of the floor measured in the same run: the same pages fetched with plain
 * `fetch`, `JSON.parse`d and upserted into the same schema by hand-written prepared
 * statements in one transaction. Target: engine / floor >= 0.6. Also bytes per catalog record
 * of the synced mirror.
 *
 * Runs alternate floor, engine, floor, engine (best of each), each into a fresh mirror file.
 *
 *   bash scripts/pnpm.sh --filter @eo/sync exec tsx bench/first-sync.ts [--smoke]
 */
import fs from 'node:fs';
import path from 'node:path';
import { openMirrorDatabase } from '../src/db/open';
import { DEFAULT_PULL } from '../src/pull/engine';
import { reportVerdict } from '@eo/bench-kit';
import { catalogBytes, databaseBytes, fmt, log, smoke, tempDir } from './common';
import { forkService } from './reference-service';
import { serviceCopy, serviceData } from './service-data';
import { engineSync, floorSync, packAll } from './sync-runs';

const RECORDS = smoke ? 500 : 100_000;
const ORDERS = smoke ? 20 : 10_000;
const ROUNDS = smoke ? 1 : 3;
const PAGE = DEFAULT_PULL.pageSize;

const source = await serviceData(RECORDS, ORDERS);
const data = serviceCopy(source);
const service = await forkService(data.dir);

interface Run {
  readonly records: number;
  readonly ms: number;
  /** CPU time of this process (user + system): steadier than wall time on a busy machine. */
  readonly cpuMs: number;
  readonly catalog: number;
  readonly bytes: number;
  readonly catalogBytes: number;
  /** CPU of packing what the pull stored as text, after it (the engine's; 0 for the floor). */
  readonly packingMs: number;
}

/** A fresh mirror file, measured by `pull`, then sized and removed. */
async function measure(
  pull: (db: ReturnType<typeof openMirrorDatabase>) => Promise<void>,
  after?: (db: ReturnType<typeof openMirrorDatabase>) => Promise<void>,
): Promise<Run> {
  const dir = tempDir('first-sync');
  const file = path.join(dir, 'mirror.db');
  const local = openMirrorDatabase(file);
  try {
    const t = performance.now();
    const cpu = process.cpuUsage();
    await pull(local);
    const ms = performance.now() - t;
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000;
    // What the app does when idle after a sync; the sizes below are the packed mirror's.
    const packing = process.cpuUsage();
    await after?.(local);
    const packed = process.cpuUsage(packing);
    const packingMs = after ? (packed.user + packed.system) / 1000 : 0;
    const count = (table: string) =>
      (local.sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    const catalog = count('catalog_records');
    return {
      records: catalog + count('mirror_orders'),
      ms,
      cpuMs,
      catalog,
      bytes: databaseBytes(local.sqlite, file),
      catalogBytes: catalogBytes(local.sqlite),
      packingMs,
    };
  } finally {
    local.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const floor = (local: ReturnType<typeof openMirrorDatabase>) => floorSync(service, local);
const engine = (local: ReturnType<typeof openMirrorDatabase>) => engineSync(service, local);

try {
  log(`first sync: ${RECORDS} catalog records + ${ORDERS} orders, ${ROUNDS} round(s) ...`);
  const floors: Run[] = [];
  const engines: Run[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    floors.push(await measure(floor));
    log(`  floor:  ${fmt(floors.at(-1)!.ms)} ms (${fmt(floors.at(-1)!.cpuMs)} ms CPU)`);
    engines.push(await measure(engine, packAll));
    const e = engines.at(-1)!;
    log(
      `  engine: ${fmt(e.ms)} ms (${fmt(e.cpuMs)} ms CPU; then packing ${fmt(e.packingMs)} ms CPU)`,
    );
  }
  const best = (runs: Run[]) => runs.reduce((a, b) => (b.ms < a.ms ? b : a));
  const f = best(floors);
  const e = best(engines);
  if (e.records !== f.records) throw new Error(`engine ${e.records} vs floor ${f.records} rows`);
  const rate = (r: Run) => r.records / (r.ms / 1000);
  const minCpu = (runs: Run[]) => Math.min(...runs.map((r) => r.cpuMs));
  console.log(
    [
      `first sync${smoke ? ' (smoke sizes, not a figure)' : ''}: ${fmt(e.catalog)} catalog records + ${fmt(e.records - e.catalog)} orders, page ${PAGE}, best of ${ROUNDS}`,
      `  floor (fetch + JSON.parse + hand-written upserts, one transaction): ${fmt(rate(f))} records/s (${fmt(f.ms / 1000, 1)} s)`,
      `  engine (batches of ${DEFAULT_PULL.batchRecords} records or ${DEFAULT_PULL.batchMs} ms, checkpoints): ${fmt(rate(e))} records/s (${fmt(e.ms / 1000, 1)} s)`,
      `  ratio engine / floor: ${(rate(e) / rate(f)).toFixed(2)} (target >= 0.6)`,
      `  client CPU per pass (best): floor ${fmt(minCpu(floors) / 1000, 1)} s, engine ${fmt(minCpu(engines) / 1000, 1)} s -> ratio ${(minCpu(floors) / minCpu(engines)).toFixed(2)} (load-proof check of the above)`,
      `  packing afterwards, when idle (not in the figures above): ${fmt(e.packingMs / 1000, 1)} s CPU, ${fmt((e.packingMs * 1000) / e.catalog)} µs per catalog record`,
      `  mirror size, packed: ${fmt(e.bytes / e.catalog)} bytes per catalog record (whole file, orders included); catalog tables alone ${fmt(e.catalogBytes / e.catalog)} bytes/record`,
    ].join('\n'),
  );
  reportVerdict('first sync', [
    { what: 'engine / floor records/s', value: rate(e) / rate(f), atLeast: 0.6 },
    { what: 'floor / engine client CPU', value: minCpu(floors) / minCpu(engines) },
  ]);
} finally {
  await service.stop();
  data.dispose();
}
