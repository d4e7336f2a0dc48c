/**
 * The catalog at scale: a mirror of `--records N` generated catalog records (default
 * 1,000,000; the scale run is `--records 10000000`), written by the mirror's writers in
 * batches (`mirror-cache.ts`: memory bounded by one batch) and cached. Prints, from one run:
 *
 * - disk: bytes per catalog record (dbstat pages of the catalog's tables, indexes, R*Tree and
 *   seen marks, object by object) and the whole file's; target <= 800 B;
 * - search over the desktop's typical query (a ~2°x2° bbox, one year, cloud < 30, newest
 *   first, 100 a page): the result list from columns (what the desktop shows: target p95
 *   < 20 ms) and the same page with whole records decoded and parsed (printed);
 * - cold start: a fresh process opening the mirror as the desktop's backend does and
 *   answering a first screen (counts, the list's first page, a map view's footprints;
 *   `catalog-cold-start.ts`), against the same process start with nothing opened (the floor),
 *   median of several; and the peak memory (RSS) of both;
 * - the peak memory of this process (the build, when it ran, and the searches).
 *
 *   bash scripts/pnpm.sh --filter @eo/sync exec tsx bench/catalog-scale.ts [--records N] [--smoke]
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { installRecordFunction } from '@eo/catalog-store';
import { reportVerdict } from '@eo/bench-kit';
import { CatalogSearchRequest } from '@eo/domain';
import Database from 'better-sqlite3';
import { makeOfflineCatalogSearch } from '../src/search/catalog';
import { catalogBytes, catalogBytesByObject, fmt, log, pct, smoke } from './common';
import { cachedMirror, searchBodies } from './mirror-cache';

const flag = process.argv.indexOf('--records');
const RECORDS = smoke ? 1_000 : flag > 0 ? Number(process.argv[flag + 1]) : 1_000_000;
if (!Number.isSafeInteger(RECORDS) || RECORDS < 1)
  throw new Error(`--records wants a positive whole number, got ${process.argv[flag + 1]}`);
const QUERIES = smoke ? 20 : 300;
const STARTS = smoke ? 2 : 5;

const t0 = performance.now();
const file = await cachedMirror(RECORDS);
const buildS = (performance.now() - t0) / 1000;

// --- disk ---------------------------------------------------------------------------------------
const sqlite = new Database(file, { readonly: true });
installRecordFunction(sqlite);
const total = sqlite.prepare('SELECT count(*) FROM catalog_records').pluck().get() as number;
const perRecord = catalogBytes(sqlite) / total;
const fileBytes = fs.statSync(file).size;
const where = catalogBytesByObject(sqlite)
  .filter((o) => o.bytes / total >= 1)
  .map((o) => `    ${o.name}: ${fmt(o.bytes / total)} B/record`);

// --- search -------------------------------------------------------------------------------------
const bodies = searchBodies(sqlite, QUERIES, 11).map((b) => CatalogSearchRequest.parse(b));
const search = makeOfflineCatalogSearch(sqlite);
const times = { rows: [] as number[], parsed: [] as number[] };
let returned = 0;
for (const req of bodies) returned += search.rows(req).rows.length; // warm-up
for (let round = 0; round < 2; round++)
  for (const req of bodies) {
    let t = performance.now();
    search.rows(req);
    times.rows.push(performance.now() - t);
    t = performance.now();
    search.parsed(req);
    times.parsed.push(performance.now() - t);
  }
sqlite.close();

// --- cold start ---------------------------------------------------------------------------------
const tsx = createRequire(import.meta.url).resolve('tsx/cli');
const child = fileURLToPath(new URL('catalog-cold-start.ts', import.meta.url));
interface Start {
  wallMs: number;
  openMs: number;
  firstScreenMs: number;
  maxRssMb: number;
}
function start(floor: boolean): Start {
  const t = performance.now();
  const r = spawnSync(process.execPath, [tsx, child, file, ...(floor ? ['--floor'] : [])], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  const wallMs = performance.now() - t;
  if (r.status !== 0) throw new Error(`cold start failed (${r.status}): ${r.stderr}`);
  return { wallMs, ...(JSON.parse(r.stdout.trim().split('\n').at(-1)!) as Omit<Start, 'wallMs'>) };
}
const starts = { mirror: [] as Start[], floor: [] as Start[] };
for (let i = 0; i < STARTS; i++) {
  starts.floor.push(start(true));
  starts.mirror.push(start(false));
}
const median = (xs: Start[], key: keyof Start) =>
  pct(
    xs.map((s) => s[key]),
    50,
  );
const coldMs = median(starts.mirror, 'wallMs');
const floorMs = median(starts.floor, 'wallMs');

const load = os.loadavg()[0]!.toFixed(1);
console.log(
  [
    `catalog at scale${smoke ? ' (smoke sizes, not a figure)' : ''}: ${fmt(total)} records (build ${buildS < 1 ? 'cached' : `${fmt(buildS)} s`}), load ${load} on ${os.cpus().length} cores`,
    `  disk: ${fmt(perRecord)} bytes per catalog record (whole file ${fmt(fileBytes / total)}, ${fmt(fileBytes / 1e9, 2)} GB), of which:`,
    ...where,
    `  search, ${QUERIES} queries x 2 (avg ${fmt(returned / QUERIES, 1)} returned):`,
    `    result list from columns: p50 ${fmt(pct(times.rows, 50), 2)} ms, p95 ${fmt(pct(times.rows, 95), 2)} ms`,
    `    whole records decoded and parsed: p50 ${fmt(pct(times.parsed, 50), 2)} ms, p95 ${fmt(pct(times.parsed, 95), 2)} ms`,
    `  cold start (median of ${STARTS}): ${fmt(coldMs)} ms spawn to first screen (open ${fmt(median(starts.mirror, 'openMs'))} ms, first screen ${fmt(median(starts.mirror, 'firstScreenMs'))} ms), floor ${fmt(floorMs)} ms: ${(coldMs / floorMs).toFixed(2)}x`,
    `  memory: cold start peak RSS ${fmt(median(starts.mirror, 'maxRssMb'))} MB (floor ${fmt(median(starts.floor, 'maxRssMb'))} MB); this process ${fmt(process.resourceUsage().maxRSS / 1024)} MB`,
  ].join('\n'),
);
log(`cold start samples: ${starts.mirror.map((s) => fmt(s.wallMs)).join(', ')} ms`);
reportVerdict('catalog at scale', [
  { what: 'bytes per catalog record', value: perRecord, atMost: 800, digits: 0 },
  { what: 'result-list search p95', value: pct(times.rows, 95), atMost: 20, unit: 'ms' },
]);
