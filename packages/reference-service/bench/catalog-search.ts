/**
 * Benchmark: POST /v0/catalogs/search on 1,000,000 catalog records, the desktop's typical
 * query: a ~2°x2° bbox, a one-year datetime interval and `eo:cloud_cover < 30`, sorted by
 * datetime, limit 100. Prints, from one run on one database:
 *
 * - p50 / p95 latency of the search called in-process (target p95 < 50 ms);
 * - the ratio against a full scan of the same table answering the same query (target >= 50x);
 * - HTTP requests/s on 127.0.0.1 (keep-alive client in a worker thread) against requests/s of
 *   the same handler work called in a loop in-process (target >= 0.85).
 *
 *   bash scripts/pnpm.sh --filter @eo/reference-service exec tsx bench/catalog-search.ts [--smoke]
 *
 * `--smoke`: 5,000 records and a few dozen queries (checks the bench works; not a figure).
 * Records are the seed generator's scenes as catalog records (without asset lists).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import { Worker } from 'node:worker_threads';
import { CatalogSearchRequest, type CatalogSearchRequestInput } from '@eo/domain';
import { makeCatalogInserter } from '../src/catalog/repository';
import { catalogSearchBody, makeCatalogSearch } from '../src/catalog/search';
import type { RawJson } from '../src/http/endpoint';
import { JsonParts } from '../src/http/json-bytes';
import { UrlSigner } from '../src/imagery/signing';
import { openDatabase } from '../src/db/client';
import { createApiKey, createOrganization, createUser } from '../src/orgs/repository';
import { demoCatalogRecord } from '../src/seed/demo-catalog';
import { createRng } from '../src/seed/prng';
import { generateScenes } from '../src/seed/scenes';
import { installSpatialFunctions, withQueryGeometry } from '@eo/catalog-store';
import { startServer } from '../src/server';
import { median, reportVerdict } from '@eo/bench-kit';

const smoke = process.argv.includes('--smoke');
const RECORDS = smoke ? 5_000 : Number(process.env.BENCH_RECORDS ?? 1_000_000);
const QUERIES = smoke ? 30 : 300;
const HTTP_REQUESTS = smoke ? 60 : 600;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const SCANS = smoke ? 2 : 3;
/** Alternating HTTP / in-process rounds. */
const ROUNDS = smoke ? 1 : 5;
const ORG = 'org-bench';

const log = (s: string) => process.stderr.write(`${s}\n`);
const ms = (ns: bigint) => Number(ns) / 1e6;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-bench-catalog-'));
const db = openDatabase(path.join(dataDir, 'eo.sqlite'));

// --- data ------------------------------------------------------------------------------------
log(`building ${RECORDS} catalog records in ${dataDir} ...`);
const t0 = process.hrtime.bigint();
const centres: Array<[number, number]> = [];
{
  const now = Date.now();
  createOrganization(db.sqlite, { id: ORG, name: 'Bench' }, now);
  createUser(db.sqlite, { id: 'usr-bench', orgId: ORG, name: 'Bench', email: 'b@x.invalid' }, now);
  const insert = makeCatalogInserter(db.sqlite);
  const scenes = generateScenes({ count: RECORDS, assets: false });
  db.sqlite.pragma('cache_size = -1000000');
  const batch = db.sqlite.transaction((n: number) => {
    for (let i = 0; i < n; i++) {
      const next = scenes.next();
      if (next.done) return false;
      const k = centres.length;
      const p = next.value.feature.properties;
      centres.push([p['view:scene_center_lon']!, p['view:scene_center_lat']!]);
      insert(
        demoCatalogRecord(next.value, {
          id: `cat-bench-${String(k).padStart(7, '0')}`,
          orgId: ORG,
          userId: 'usr-bench',
          nowUs: now * 1000,
          jitter: (k * 0.618) % 1,
          assets: false,
        }),
        { orgId: ORG, orderId: null, orderItemId: null },
      );
    }
    return true;
  });
  while (batch(50_000)) log(`  ${centres.length} records`);
  db.sqlite.pragma('analysis_limit = 1000');
  db.sqlite.pragma('optimize = 0x10002');
}
log(`built in ${(ms(process.hrtime.bigint() - t0) / 1000).toFixed(1)} s`);

// --- the query mix ---------------------------------------------------------------------------
const rng = createRng(99);
const bodies: CatalogSearchRequestInput[] = Array.from({ length: QUERIES }, () => {
  const [lon, lat] = centres[rng.int(centres.length)]!;
  const w = Math.max(-180, lon - 1);
  const e = Math.min(180, lon + 1);
  return {
    bbox: [w, Math.max(-90, lat - 1), e, Math.min(90, lat + 1)],
    datetime: '2024-01-01T00:00:00Z/2024-12-31T23:59:59Z',
    query: { 'eo:cloud_cover': { lt: 30 } },
    sort_by: [{ field: 'datetime', direction: 'desc' }],
    limit: 100,
  };
});

// --- in-process latency ------------------------------------------------------------------------
/** The body's bytes as the endpoint makes them: joined into a Buffer written over again (http/body-pool.ts). */
const lent = Buffer.allocUnsafeSlow(1 << 20);
const bodyBytes = (raw: RawJson) =>
  raw.json instanceof JsonParts
    ? raw.json.bytes((n) => (n <= lent.length ? lent : Buffer.allocUnsafe(n)))
    : raw.json;
const search = makeCatalogSearch(db.sqlite);
const signer = new UrlSigner(randomBytes(32), Date.now);
/** What the route handler does: validate the body, search, shape the response. */
const handle = (body: CatalogSearchRequestInput) => {
  const req = CatalogSearchRequest.parse(body);
  const page = search(ORG, req);
  return { page, body: bodyBytes(catalogSearchBody(page, req, signer, ORG)) };
};
const handleIds = (body: CatalogSearchRequestInput) =>
  handle(body).page.json.map((j) => (JSON.parse(j) as { id: string }).id);
for (const b of bodies.slice(0, 10)) handle(b); // warm-up
const latencies: number[] = [];
let matched = 0;
for (const b of bodies) {
  const s = process.hrtime.bigint();
  const r = handle(b);
  latencies.push(ms(process.hrtime.bigint() - s));
  matched += r.page.json.length;
}
const p50 = pct(latencies, 50);
const p95 = pct(latencies, 95);

// --- full scan of the same table ---------------------------------------------------------------
installSpatialFunctions(db.sqlite);
const scanSql = `
  SELECT c.id FROM catalog_records c NOT INDEXED
  WHERE c.org_id = @org AND c.datetime_us >= @start AND c.datetime_us <= @end AND c.cloud_cover < 30
    AND c.min_lon <= @e AND c.max_lon >= @w AND c.min_lat <= @n AND c.max_lat >= @s
    AND eo_intersects(@token, json_extract(c.record_json, '$.details.geometry'))
  ORDER BY c.datetime_us DESC, c.id LIMIT 100`;
const scan = db.sqlite.prepare(scanSql);
const scanTimes: number[] = [];
for (const b of bodies.slice(0, SCANS)) {
  const [w, s, e, n] = b.bbox as number[];
  const polygon = {
    type: 'Polygon' as const,
    coordinates: [
      [
        [w!, s!],
        [e!, s!],
        [e!, n!],
        [w!, n!],
        [w!, s!],
      ],
    ],
  };
  const t = process.hrtime.bigint();
  const ids = withQueryGeometry(db.sqlite, polygon, (token) =>
    (
      scan.all({
        org: ORG,
        start: Date.UTC(2024, 0, 1) * 1000,
        end: (Date.UTC(2025, 0, 1) - 1000) * 1000,
        w,
        s,
        e,
        n,
        token,
      }) as Array<{ id: string }>
    ).map((r) => r.id),
  );
  scanTimes.push(ms(process.hrtime.bigint() - t));
  const indexed = handleIds(b);
  if (JSON.stringify(ids) !== JSON.stringify(indexed))
    throw new Error('full scan and index disagree');
}
const scanMedian = pct(scanTimes, 50);

// --- HTTP against in-process throughput ------------------------------------------------------
const key = createApiKey(db.sqlite, { orgId: ORG, userId: 'usr-bench' }, Date.now());
db.close();
const server = await startServer({ dataDir, logLevel: 'warn', workerTickMs: 0 });
const appSearch = makeCatalogSearch(server.app.ctx.sqlite);
const inProcess = (body: CatalogSearchRequestInput) => {
  const req = CatalogSearchRequest.parse(body);
  return bodyBytes(catalogSearchBody(appSearch(ORG, req), req, server.app.ctx.imagery.signer, ORG));
};
/** One in-process run of the same requests the HTTP client sends: requests/s. */
const inProcessRun = () => {
  const t = process.hrtime.bigint();
  for (let i = 0; i < HTTP_REQUESTS; i++) inProcess(bodies[i % bodies.length]!);
  return HTTP_REQUESTS / (ms(process.hrtime.bigint() - t) / 1000);
};

const clientSource = `
  const { parentPort, workerData } = require('node:worker_threads');
  const http = require('node:http');
  const { url, key, bodies, total, concurrency } = workerData;
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(url + '/v0/catalogs/search');
  let next = 0, done = 0, failed = 0;
  const one = () => new Promise((resolve) => {
    const payload = JSON.stringify(bodies[next++ % bodies.length]);
    const req = http.request({ agent, method: 'POST', hostname: target.hostname, port: target.port,
      path: target.pathname, headers: { authorization: key, 'content-type': 'application/json',
      'content-length': Buffer.byteLength(payload) } }, (res) => {
        if (res.statusCode !== 200) failed++;
        res.on('data', () => {}); res.on('end', resolve);
      });
    req.end(payload);
  });
  const lane = async () => { while (next < total) { await one(); done++; } };
  const start = process.hrtime.bigint();
  Promise.all(Array.from({ length: concurrency }, lane)).then(() => {
    parentPort.postMessage({ done, failed, ms: Number(process.hrtime.bigint() - start) / 1e6 });
    agent.destroy();
  });
`;
const runClient = (total: number) =>
  new Promise<{ done: number; failed: number; ms: number }>((resolve, reject) => {
    const w = new Worker(clientSource, {
      eval: true,
      workerData: { url: server.url, key, bodies, total, concurrency: CONCURRENCY },
    });
    w.once('message', resolve);
    w.once('error', reject);
  });
await runClient(Math.min(40, HTTP_REQUESTS)); // warm-up
inProcessRun(); // warm-up
const profiler = process.env.BENCH_PROFILE ? new Session() : undefined;
if (profiler) {
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.start');
}
// Alternating rounds, each side's median: both see the same warm caches and the same machine
// noise (comparing the best of two in-process runs with one HTTP run flattered in-process).
const httpRuns: number[] = [];
const inRuns: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const h = await runClient(HTTP_REQUESTS);
  if (h.failed > 0) throw new Error(`${h.failed} HTTP requests failed`);
  httpRuns.push(h.done / (h.ms / 1000));
  if (round === 0 && profiler) {
    const { profile } = await profiler.post('Profiler.stop');
    fs.writeFileSync(process.env.BENCH_PROFILE!, JSON.stringify(profile));
  }
  inRuns.push(inProcessRun());
}
const httpRps = median(httpRuns);
const inRps = median(inRuns);
await server.close();
void http;

const size = fs.statSync(path.join(dataDir, 'eo.sqlite')).size;
fs.rmSync(dataDir, { recursive: true, force: true });

const lines = [
  `catalog search bench${smoke ? ' (smoke sizes, not a figure)' : ''}: ${RECORDS} records, ${QUERIES} queries, ${(size / 1e9).toFixed(2)} GB database`,
  `  query: ~2°x2° bbox + one-year datetime + eo:cloud_cover < 30, sort datetime desc, limit 100 (avg ${(matched / QUERIES).toFixed(1)} returned)`,
  `  latency in-process: p50 ${p50.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms (target p95 < 50 ms)`,
  `  full scan of the same table: median ${scanMedian.toFixed(0)} ms -> ${(scanMedian / p50).toFixed(0)}x slower than the indexed p50 (target >= 50x)`,
  `  HTTP on 127.0.0.1 (${CONCURRENCY} keep-alive connections): ${httpRps.toFixed(0)} req/s; same handler in-process: ${inRps.toFixed(0)} req/s -> ratio ${(httpRps / inRps).toFixed(2)} (target >= 0.85; medians of ${ROUNDS} alternating rounds, HTTP ${httpRuns.map((x) => x.toFixed(0)).join(' ')}, in-process ${inRuns.map((x) => x.toFixed(0)).join(' ')})`,
];
process.stdout.write(`${lines.join('\n')}\n`);
reportVerdict('catalog search', [
  { what: 'in-process p95', value: p95, atMost: 50, unit: 'ms' },
  { what: 'full scan / indexed p50', value: scanMedian / p50, atLeast: 50, digits: 0 },
  { what: 'HTTP / in-process req/s', value: httpRps / inRps, atLeast: 0.85 },
]);
