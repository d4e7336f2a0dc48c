/**
 * Search on 100,000 mirrored records, the backend half of "search to results shown": the
 * list page (`catalog.search`) and every match's footprint (`catalog.footprints`), through the
 * backend's validating dispatch and through browser mode's HTTP API, each against a same-run
 * baseline:
 * - page: @eo/sync's offline search called directly (ratio = cost of validation + list rows);
 * - footprints: the naive way, every matching record's JSON parsed in JS (ratio < 1 = faster);
 * - HTTP: the same call in-process (ratio = cost of the browser-mode transport).
 *
 *   bash scripts/pnpm.sh --filter @eo/desktop exec tsx bench/backend-search.ts [--smoke]
 *
 * or `await backendSearchBench({ smoke })` from a bench runner.
 */
import { reportVerdict } from '@eo/bench-kit';
import { COMPACT_LAYOUT, compileCatalogSql, footprintRing } from '@eo/catalog-store';
import { CatalogSearchRequest } from '@eo/domain';
import { makeOfflineCatalogSearch, openMirrorDatabase } from '@eo/sync';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createBackend } from '../src/backend/backend';
import { memorySecrets } from '../src/backend/secrets';
import { startBrowserMode } from '../src/browser-mode/server';
import { decodeFootprints } from '../src/shared/contract';
import { median, mirrorWith, timeMs } from './backend-fixtures';

export async function backendSearchBench(options: { smoke: boolean }): Promise<void> {
  const smoke = options.smoke;
  const N = smoke ? 2_000 : 100_000;
  const RUNS = smoke ? 2 : 5;

  const fixture = await mirrorWith(N);
  // The backend opens the same data dir (mirror.sqlite) the fixture filled.
  fixture.db.close();
  const backend = createBackend({
    dataDir: fixture.dataDir,
    secrets: memorySecrets(),
    mode: 'browser',
  });
  const rendererDir = fs.mkdtempSync(path.join(fixture.dataDir, 'renderer-'));
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html>');
  const server = await startBrowserMode({ backend, rendererDir });

  const europe = {
    bbox: [-10, 35, 30, 60] as [number, number, number, number],
    query: { 'eo:cloud_cover': { lt: 50 } },
    sort_by: [{ field: 'datetime', direction: 'desc' as const }],
    limit: 100,
  };
  const everything = { limit: 100 };

  async function via(method: string, input: unknown) {
    const r = await backend.dispatch(method, input);
    if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
    return r.value;
  }
  async function overHttp(
    method: string,
    input: unknown,
  ): Promise<{ value: unknown; bytes: number }> {
    const res = await fetch(`${server.url}/api/call/${method}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(input),
    });
    // A binary answer (catalog.footprints) is decoded as the page decodes it.
    if (res.headers.get('content-type') === 'application/octet-stream') {
      const bytes = new Uint8Array(await res.arrayBuffer());
      return { value: decodeFootprints(bytes), bytes: bytes.byteLength };
    }
    const text = await res.text();
    const body = JSON.parse(text) as { ok: boolean; value: unknown };
    if (!body.ok) throw new Error(text);
    return { value: body.value, bytes: Buffer.byteLength(text) };
  }

  // The baselines, on a second connection to the same file.
  const raw = openMirrorDatabase(path.join(fixture.dataDir, 'mirror.sqlite'));
  const offlineSearch = makeOfflineCatalogSearch(raw.sqlite);
  function naiveFootprints(q: unknown): number {
    const c = compileCatalogSql('mirror', CatalogSearchRequest.parse(q), COMPACT_LAYOUT);
    if (c.geometry !== null) throw new Error('baseline is for non-spatial queries');
    let n = 0;
    // Each whole record, as the mirror holds it (packed), decoded and parsed.
    for (const r of raw.sqlite
      .prepare(`SELECT ${COMPACT_LAYOUT.recordSql} AS record_json FROM ${c.from} WHERE ${c.where}`)
      .iterate(c.params) as Iterable<{ record_json: string }>) {
      const rec = JSON.parse(r.record_json) as { details: { geometry: unknown; bbox: number[] } };
      const ring = footprintRing(rec.details.geometry, null);
      if (ring) n++;
    }
    return n;
  }

  async function measure(fn: () => unknown, runs = RUNS): Promise<number> {
    await fn(); // warm-up: statements prepared, pages cached
    const xs: number[] = [];
    for (let i = 0; i < Math.min(runs, RUNS); i++) xs.push(await timeMs(fn));
    return median(xs);
  }

  /**
   * Two ways of doing the same call, each warmed up, then timed alternately: both see the same
   * warm process and the same machine noise (timing one fully before the other made HTTP look
   * faster than the in-process call it wraps).
   */
  async function measurePair(a: () => unknown, b: () => unknown): Promise<[number, number]> {
    await a();
    await b();
    const xa: number[] = [];
    const xb: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      xa.push(await timeMs(a));
      xb.push(await timeMs(b));
    }
    return [median(xa), median(xb)];
  }

  const fmt = (ms: number) => `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
  console.log(`desktop search: ${N} mirrored records, median of ${RUNS}${smoke ? ' (smoke)' : ''}`);

  const pageTotal = ((await via('catalog.search', europe)) as { total: number }).total;
  const [pageOurs, httpPage] = await measurePair(
    () => via('catalog.search', europe),
    () => overHttp('catalog.search', europe),
  );
  const pageBase = await measure(() => offlineSearch(europe));
  console.log(
    `  catalog.search, Europe bbox + cloud < 50, newest 100 of ${pageTotal}: ${fmt(pageOurs)}  (offline search alone ${fmt(pageBase)}, ratio ${(pageOurs / pageBase).toFixed(2)})`,
  );

  const fpEurope = await measure(() => via('catalog.footprints', europe));
  console.log(`  catalog.footprints, same query (${pageTotal} rings): ${fmt(fpEurope)}`);

  const allCount = decodeFootprints((await via('catalog.footprints', everything)) as Uint8Array).ids
    .length;
  let bytes = 0;
  const [fpAll, httpAll] = await measurePair(
    () => via('catalog.footprints', everything),
    async () => {
      bytes = (await overHttp('catalog.footprints', everything)).bytes;
    },
  );
  const fpNaive = await measure(() => naiveFootprints(everything), 3);
  // Warm: the same search again (the mirror keeps its last answer, encoded once). Cold: a fresh
  // backend, nothing kept (the first search after start or a sync): rings read from
  // catalog_footprints, encoded.
  const cold: number[] = [];
  for (let i = 0; i < Math.min(RUNS, 3); i++) {
    const fresh = createBackend({
      dataDir: fixture.dataDir,
      secrets: memorySecrets(),
      mode: 'browser',
    });
    cold.push(await timeMs(() => fresh.dispatch('catalog.footprints', everything)));
    await fresh.close();
  }
  console.log(
    `  catalog.footprints, all ${allCount} records: ${fmt(fpAll)} warm, ${fmt(median(cold))} cold  (records parsed in JS ${fmt(fpNaive)}; ratio warm ${(fpAll / fpNaive).toFixed(2)}, cold ${(median(cold) / fpNaive).toFixed(2)})`,
  );

  console.log(
    `  same over browser-mode HTTP (fetch + decode the binary answer): ${fmt(httpAll)}, ${(bytes / 1e6).toFixed(1)} MB  (in-process ratio ${(httpAll / fpAll).toFixed(2)})`,
  );
  console.log(
    `  catalog.search over HTTP: ${fmt(httpPage)}  (in-process ratio ${(httpPage / pageOurs).toFixed(2)})`,
  );
  // No target is written down for these: figures, reported (in-process and HTTP alternate).
  reportVerdict(
    'desktop search',
    [
      { what: 'catalog.search / offline search alone', value: pageOurs / pageBase },
      { what: 'catalog.footprints (all, warm) / records parsed in JS', value: fpAll / fpNaive },
      {
        what: 'catalog.footprints (all, cold) / records parsed in JS',
        value: median(cold) / fpNaive,
      },
      { what: 'footprints over HTTP / in-process', value: httpAll / fpAll },
      { what: 'search over HTTP / in-process', value: httpPage / pageOurs },
    ],
    { smoke },
  );

  raw.close();
  await server.close();
  await backend.close();
  fixture.close();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  await backendSearchBench({ smoke: process.argv.includes('--smoke') });
}
