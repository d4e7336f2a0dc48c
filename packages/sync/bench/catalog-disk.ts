/**
 * The catalog on disk: the same generated records (the server's bulk generator, as the first
 * sync's service holds them) mirrored in the layout from before `0012_compact_catalog` (each
 * record's JSON text) and in the compact one (packed records, shared texts), measured side by
 * side in one run:
 *
 * - bytes per catalog record (dbstat pages of the catalog's tables and indexes, R*Tree and seen
 *   marks included): target <= 800 B; beside the record's JSON text and its share of one
 *   whole-stream gzip -9 (what the wire can carry it in);
 * - offline search p50 / p95 over the same queries (the desktop's typical one: a ~2°x2° bbox,
 *   one year, cloud < 30, sorted by datetime, 100 a page), the layouts alternated query by
 *   query so load hits both alike. "Search no slower": the page the desktop shows, which the
 *   compact layout builds from columns (`rows`: no record decoded) and the JSON layout built
 *   by parsing each whole record, compact / JSON p50 <= 1.10 (10 % for noise on a shared
 *   machine);
 * - the same page with whole records decoded and parsed (`parsed`: what an export or a detail
 *   view reads), for reference: inflating each record (about 0.1 ms) makes it slower than
 *   `JSON.parse` of the stored text, so it is printed, not held to the JSON layout's time.
 *
 * Sizes do not depend on load; times do: read them with the load printed.
 *
 *   bash scripts/pnpm.sh --filter @eo/sync exec tsx bench/catalog-disk.ts [--smoke]
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import {
  installFootprintFunction,
  JSON_LAYOUT,
  makeCatalogSearch,
  makeCatalogPacker,
  makeCatalogUpserter,
} from '@eo/catalog-store';
import { migrationsBefore } from '@eo/catalog-store/testing';
import { reportVerdict } from '@eo/bench-kit';
import { CatalogSearchRequest, type CatalogSearchRequestInput } from '@eo/domain';
import { DEMO } from '@eo/fixtures';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { MIGRATIONS_FOLDER, openMirrorDatabase } from '../src/db/open';
import { MIRROR_ORG } from '../src/mirror/rows';
import { makeMirrorWriters } from '../src/mirror/writers';
import { makeOfflineCatalogSearch } from '../src/search/catalog';
import { catalogBytes, catalogBytesByObject, fmt, log, pct, smoke, tempDir } from './common';

// A pass id as the engine makes them (a UUID): the seen marks' size depends on it.
const PASS = randomUUID();
const RECORDS = smoke ? 2_000 : Number(process.env.BENCH_RECORDS ?? 100_000);
const QUERIES = smoke ? 20 : 300;
const BATCH = 5_000;

// Loaded only here (the server package takes seconds to import).
const { generateCatalogRecords } = await import('@eo/reference-service');
const generated = () =>
  generateCatalogRecords(RECORDS, {
    orgId: DEMO.orgId,
    userId: DEMO.users[0].id,
    nowUs: Date.UTC(2026, 0, 1) * 1000,
  });

const dir = tempDir('catalog-disk');
try {
  // --- the two mirrors ----------------------------------------------------------------------
  log(`writing ${RECORDS} records in both layouts ...`);
  const oldFile = path.join(dir, 'json.db');
  const old = new Database(oldFile);
  old.pragma('page_size = 8192');
  old.pragma('journal_mode = WAL');
  installFootprintFunction(old);
  migrate(drizzle(old), {
    migrationsFolder: migrationsBefore(
      MIGRATIONS_FOLDER,
      '0012_compact_catalog',
      path.join(dir, 'migrations'),
    ),
  });
  const upsertOld = makeCatalogUpserter(old, 'lenient', JSON_LAYOUT);
  const seenOld = old.prepare(
    'INSERT OR REPLACE INTO mirror_catalog_seen (record_id, pass_id) VALUES (?, ?)',
  );
  const writeOld = old.transaction((batch: Array<{ id: string }>) => {
    for (const r of batch) {
      upsertOld(r as Parameters<typeof upsertOld>[0], {
        orgId: MIRROR_ORG,
        orderId: null,
        orderItemId: null,
      });
      seenOld.run(r.id, PASS);
    }
  });

  const local = openMirrorDatabase(path.join(dir, 'compact.db'));
  const writer = makeMirrorWriters(local.sqlite).catalogs;
  // Packed as the app packs after a sync (the writer stores text), batch by batch.
  const packer = makeCatalogPacker(local.sqlite);
  const writeNew = local.sqlite.transaction((batch: unknown[]) => {
    writer.write(batch, PASS);
    while (packer.next(BATCH).left > 0);
  });

  let textBytes = 0;
  const gzip = zlib.createGzip({ level: 9 });
  let gzipBytes = 0;
  gzip.on('data', (c: Buffer) => (gzipBytes += c.length));
  let batch: Array<{ id: string }> = [];
  const flush = () => {
    writeOld(batch);
    writeNew(batch);
    batch = [];
  };
  for (const r of generated()) {
    const text = JSON.stringify(r);
    textBytes += Buffer.byteLength(text);
    gzip.write(text);
    batch.push(r as { id: string });
    if (batch.length === BATCH) flush();
  }
  flush();
  await new Promise<void>((resolve) => gzip.end(resolve));
  const oldBytes = catalogBytes(old) / RECORDS;
  const newBytes = catalogBytes(local.sqlite) / RECORDS;
  const where = catalogBytesByObject(local.sqlite).map(
    (o) =>
      `    ${o.name}: ${fmt(o.bytes / RECORDS)} B/record (payload ${fmt(o.payload / RECORDS)}, pages ${fmt((100 * o.payload) / Math.max(1, o.bytes))} % full)`,
  );

  // --- search on both -------------------------------------------------------------------------
  let seed = 7;
  const rand = () => (seed = (seed * 48271) % 2147483647) / 2147483647; // Park-Miller
  const centre = local.sqlite.prepare(
    'SELECT (min_lon + max_lon) / 2 AS lon, (min_lat + max_lat) / 2 AS lat FROM catalog_records WHERE seq = ?',
  );
  const bodies: CatalogSearchRequest[] = Array.from({ length: QUERIES }, () => {
    const { lon, lat } = centre.get(1 + Math.floor(rand() * RECORDS)) as {
      lon: number;
      lat: number;
    };
    const body: CatalogSearchRequestInput = {
      bbox: [lon - 1, Math.max(-90, lat - 1), lon + 1, Math.min(90, lat + 1)],
      datetime: '2024-01-01T00:00:00Z/2024-12-31T23:59:59Z',
      query: { 'eo:cloud_cover': { lt: 30 } },
      sort_by: [{ field: 'datetime', direction: 'desc' }],
      limit: 100,
    };
    return CatalogSearchRequest.parse(body);
  });
  const searchOld = makeCatalogSearch(old, JSON_LAYOUT);
  const searchNew = makeOfflineCatalogSearch(local.sqlite);
  const runOld = (req: CatalogSearchRequest) =>
    searchOld(MIRROR_ORG, req).json.map((j) => JSON.parse(j) as { id: string });
  const runNew = (req: CatalogSearchRequest) => searchNew.parsed(req).catalogs;
  const runRows = (req: CatalogSearchRequest) => searchNew.rows(req).rows;
  // Warm-up, and the same answers from both.
  let returned = 0;
  for (const req of bodies) {
    const a = runOld(req).map((r) => r.id);
    const b = runNew(req).map((r) => r.id);
    const c = runRows(req).map((r) => r.id);
    if (a.join() !== b.join() || b.join() !== c.join())
      throw new Error('the two layouts answer a search differently');
    returned += a.length;
  }
  const times = { old: [] as number[], compact: [] as number[], rows: [] as number[] };
  const time = (xs: number[], run: () => unknown) => {
    const t = performance.now();
    run();
    xs.push(performance.now() - t);
  };
  for (let round = 0; round < 3; round++)
    for (const req of bodies) {
      time(times.old, () => runOld(req));
      time(times.compact, () => runNew(req));
      time(times.rows, () => runRows(req));
    }
  old.close();
  local.close();

  const load = os.loadavg()[0]!.toFixed(1);
  const ratio = pct(times.rows, 50) / pct(times.old, 50);
  console.log(
    [
      `catalog on disk${smoke ? ' (smoke sizes, not a figure)' : ''}: ${fmt(RECORDS)} records, ${QUERIES} queries x 3 (avg ${fmt(returned / QUERIES, 1)} returned), load ${load} on ${os.cpus().length} cores`,
      `  JSON layout (before 0012): ${fmt(oldBytes)} bytes/record`,
      `  compact layout: ${fmt(newBytes)} bytes/record (${(oldBytes / newBytes).toFixed(2)}x smaller), of which:`,
      ...where,
      `  the record as JSON text: ${fmt(textBytes / RECORDS)} bytes; its share of one gzip -9 stream of all: ${fmt(gzipBytes / RECORDS)} bytes`,
      `  search, JSON layout: p50 ${fmt(pct(times.old, 50), 2)} ms, p95 ${fmt(pct(times.old, 95), 2)} ms`,
      `  search, compact layout, the result list from columns: p50 ${fmt(pct(times.rows, 50), 2)} ms, p95 ${fmt(pct(times.rows, 95), 2)} ms`,
      `  search, compact layout, whole records decoded and parsed: p50 ${fmt(pct(times.compact, 50), 2)} ms, p95 ${fmt(pct(times.compact, 95), 2)} ms (${(pct(times.compact, 50) / pct(times.old, 50)).toFixed(2)}x the JSON layout's)`,
    ].join('\n'),
  );
  reportVerdict('catalog on disk', [
    { what: 'compact bytes per catalog record', value: newBytes, atMost: 800, digits: 0 },
    { what: 'search page p50, compact (columns) / JSON layout', value: ratio, atMost: 1.1 },
  ]);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
