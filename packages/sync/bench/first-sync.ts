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
import { createEoClient } from '@eo/api-client';
import type Database from 'better-sqlite3';

/** The footprints the service sends (catalog records: polygons). */
type Geometry =
  | { type: 'Polygon'; coordinates: number[][][] }
  | { type: 'MultiPolygon'; coordinates: number[][][][] };
import { openMirrorDatabase } from '../src/db/open';
import { createSyncEngine, DEFAULT_PULL } from '../src/pull/engine';
import { reportVerdict } from '@eo/bench-kit';
import { catalogBytes, databaseBytes, fmt, log, smoke, tempDir } from './common';
import { forkService } from './reference-service';
import { serviceCopy, serviceData } from './service-data';

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
}

/** A fresh mirror file, measured by `pull`, then sized and removed. */
async function measure(
  pull: (db: ReturnType<typeof openMirrorDatabase>) => Promise<void>,
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
    };
  } finally {
    local.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// --- the floor: plain fetch, JSON.parse, hand-written upserts, one transaction -----------------

function floorStatements(sqlite: Database.Database) {
  const order = sqlite.prepare(
    `INSERT INTO mirror_orders (id, status, user_id, created_at_us, updated_at_us, pass_id, json)
     VALUES (?, ?, ?, ?, ?, 'floor', ?)
     ON CONFLICT(id) DO UPDATE SET status = excluded.status, user_id = excluded.user_id,
       created_at_us = excluded.created_at_us, updated_at_us = excluded.updated_at_us,
       pass_id = excluded.pass_id, json = excluded.json`,
  );
  const record = sqlite.prepare(
    `INSERT INTO catalog_records (id, org_id, task_id, item_id, collection, datetime_us,
       cloud_cover, off_nadir, gsd, min_lon, min_lat, max_lon, max_lat, created_at_us,
       updated_at_us, record)
     VALUES (?, 'mirror', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET task_id = excluded.task_id, item_id = excluded.item_id,
       collection = excluded.collection, datetime_us = excluded.datetime_us,
       cloud_cover = excluded.cloud_cover, off_nadir = excluded.off_nadir, gsd = excluded.gsd,
       min_lon = excluded.min_lon, min_lat = excluded.min_lat, max_lon = excluded.max_lon,
       max_lat = excluded.max_lat, created_at_us = excluded.created_at_us,
       updated_at_us = excluded.updated_at_us, record = excluded.record
     RETURNING seq`,
  );
  const box = sqlite.prepare(
    'INSERT OR REPLACE INTO catalog_rtree (seq, min_lon, max_lon, min_lat, max_lat) VALUES (?, ?, ?, ?, ?)',
  );
  // The map's ring beside the box, as the writers keep it (here: the first outer ring as is).
  const footprint = sqlite.prepare(
    'INSERT OR REPLACE INTO catalog_footprints (seq, ring) VALUES (?, ?)',
  );
  const ringBlob = (g: Geometry) => {
    const ring = g.type === 'MultiPolygon' ? g.coordinates[0]![0]! : g.coordinates[0]!;
    const out = Buffer.allocUnsafe((ring.length - 1) * 8);
    for (let i = 0; i < ring.length - 1; i++) {
      out.writeFloatLE(ring[i]![0]!, i * 8);
      out.writeFloatLE(ring[i]![1]!, i * 8 + 4);
    }
    return out;
  };
  // The hand-written shortcuts: ms precision (Date.parse); bounds of the polygon's outer ring.
  const us = (s: unknown) => (typeof s === 'string' ? Date.parse(s) * 1000 : null);
  const bounds = (g: Geometry) => {
    const b = [Infinity, Infinity, -Infinity, -Infinity];
    const rings = g.type === 'MultiPolygon' ? g.coordinates.map((p) => p[0]!) : [g.coordinates[0]!];
    for (const ring of rings)
      for (const [x, y] of ring) {
        b[0] = Math.min(b[0]!, x!);
        b[1] = Math.min(b[1]!, y!);
        b[2] = Math.max(b[2]!, x!);
        b[3] = Math.max(b[3]!, y!);
      }
    return b;
  };
  type Wire = Record<string, unknown> & { details: Record<string, unknown> };
  return {
    order(o: Record<string, unknown>) {
      order.run(
        o.id,
        o.status,
        o.user_id ?? null,
        us(o.created_at),
        us(o.updated_at),
        JSON.stringify(o),
      );
    },
    record(r: Wire) {
      const p = r.details.properties as Record<string, number | string | undefined>;
      const b = bounds(r.details.geometry as Geometry);
      const { seq } = record.get(
        r.id,
        r.task_id ?? null,
        r.details.id,
        r.details.collection ?? null,
        us(p.datetime),
        p['eo:cloud_cover'] ?? null,
        p['view:off_nadir'] ?? null,
        p.gsd ?? null,
        b[0],
        b[1],
        b[2],
        b[3],
        us(r.created_at),
        us(r.updated_at),
        // The text as is, not packed (the compact layout's packing is the engine's cost).
        Buffer.from(JSON.stringify(r)),
      ) as { seq: number };
      box.run(seq, b[0], b[2], b[1], b[3]);
      footprint.run(seq, ringBlob(r.details.geometry as Geometry));
    },
  };
}

async function floor(local: ReturnType<typeof openMirrorDatabase>): Promise<void> {
  const put = floorStatements(local.sqlite);
  const headers = { authorization: service.key, 'content-type': 'application/json' };
  /** Pages until a short one; each page is parsed and written before the next is asked for. */
  const pages = async (
    get: (offset: number) => Promise<Response>,
    key: string,
    write: (r: never) => void,
  ) => {
    for (let offset = 0; ; offset += PAGE) {
      const res = await get(offset);
      if (!res.ok) throw new Error(`floor: HTTP ${res.status}`);
      const items = (JSON.parse(await res.text()) as Record<string, unknown[]>)[key]!;
      for (const item of items) write(item as never);
      if (items.length < PAGE) return;
    }
  };
  local.sqlite.exec('BEGIN');
  try {
    await pages(
      (offset) => fetch(`${service.url}/v0/orders?limit=${PAGE}&offset=${offset}`, { headers }),
      'orders',
      put.order,
    );
    await pages(
      (offset) =>
        fetch(`${service.url}/v0/catalogs/search`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ limit: PAGE, offset }),
        }),
      'catalogs',
      put.record,
    );
    local.sqlite.exec('COMMIT');
  } catch (e) {
    local.sqlite.exec('ROLLBACK');
    throw e;
  }
}

// --- the engine, with its defaults ---------------------------------------------------------------

async function engine(local: ReturnType<typeof openMirrorDatabase>): Promise<void> {
  const client = createEoClient({ baseUrl: service.url, apiKey: service.key });
  await createSyncEngine({ db: local, client }).sync({ resources: ['orders', 'catalogs'] });
}

try {
  log(`first sync: ${RECORDS} catalog records + ${ORDERS} orders, ${ROUNDS} round(s) ...`);
  const floors: Run[] = [];
  const engines: Run[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    floors.push(await measure(floor));
    log(`  floor:  ${fmt(floors.at(-1)!.ms)} ms (${fmt(floors.at(-1)!.cpuMs)} ms CPU)`);
    engines.push(await measure(engine));
    log(`  engine: ${fmt(engines.at(-1)!.ms)} ms (${fmt(engines.at(-1)!.cpuMs)} ms CPU)`);
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
      `  mirror size: ${fmt(e.bytes / e.catalog)} bytes per catalog record (whole file, orders included); catalog tables alone ${fmt(e.catalogBytes / e.catalog)} bytes/record`,
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
