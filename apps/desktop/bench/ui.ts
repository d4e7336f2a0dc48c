/**
 * The renderer in headless Chromium, browser mode, on a mirror of N catalog records
 * (100,000; --smoke: 2,000), offline (the configured service does not answer):
 * - the renderer's part of a cold start: a fresh browser context opens the app's address of one
 *   warm backend; time from navigation to the first results shown (list rendered, footprints
 *   drawn, frame painted); median of several runs. The whole launch, process start included,
 *   is bench/cold-start.ts's figure;
 * - search to results shown: Search with a cloud-cover filter, from the click's search start
 *   to the results shown, against the same-run baseline of the two backend calls it needs
 *   (`catalog.search` page + `catalog.footprints`) made over HTTP from Node: the ratio is what
 *   the renderer adds (parsing, packing, drawing, rendering).
 *
 *   bash scripts/pnpm.sh --filter @eo/desktop exec tsx bench/ui.ts [--smoke] [--no-build]
 */
import path from 'node:path';
import { reportVerdict } from '@eo/bench-kit';
import { chromium, type Page } from 'playwright-core';
import { createBackend } from '../src/backend/backend';
import { memorySecrets } from '../src/backend/secrets';
import { startBrowserMode } from '../src/browser-mode/server';
import { BENCH_CHROMIUM, CHROMIUM_ARGS } from '../src/e2e/chromium';
import { decodeFootprints } from '../src/shared/contract';
import { median, mirrorWith, timeMs } from './backend-fixtures';
import { appDir, buildApp } from './app-build';

const smoke = process.argv.includes('--smoke');
const N = smoke ? 2_000 : 100_000;
const RUNS = smoke ? 2 : 5;

buildApp();

/** Start time (ms from navigation) of the `nth` (1-based) performance mark of that name. */
async function markAt(page: Page, name: string, nth: number): Promise<number> {
  await page.waitForFunction(
    ([n, k]) => performance.getEntriesByName(n as string).length >= (k as number),
    [name, nth],
    { timeout: 300_000 },
  );
  return page.evaluate(
    ([n, k]) => performance.getEntriesByName(n as string)[(k as number) - 1]!.startTime,
    [name, nth],
  );
}

const fixture = await mirrorWith(N);
fixture.db.close();
const backend = createBackend({
  dataDir: fixture.dataDir,
  secrets: memorySecrets(),
  mode: 'browser',
  connectivityTimeoutMs: 500,
});
// Configured, but the service is not there: the field situation, searching the mirror offline.
const set = await backend.dispatch('settings.update', {
  serviceUrl: 'http://127.0.0.1:9',
  apiKey: 'bench-key',
});
if (!set.ok) throw new Error(set.error.message);
const server = await startBrowserMode({
  backend,
  rendererDir: path.join(appDir, 'out', 'renderer'),
});
const browser = await chromium.launch({
  executablePath: BENCH_CHROMIUM,
  args: CHROMIUM_ARGS,
});

const filtered = {
  query: { 'eo:cloud_cover': { lte: 30 } },
  sort_by: [{ field: 'datetime', direction: 'desc' }],
};
async function overHttp(method: string, input: unknown): Promise<void> {
  const res = await fetch(`${server.url}/api/call/${method}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  // A binary answer (catalog.footprints) is decoded as the page decodes it.
  if (res.headers.get('content-type') === 'application/octet-stream') {
    decodeFootprints(new Uint8Array(await res.arrayBuffer()));
    return;
  }
  const body = (await res.json()) as { ok: boolean };
  if (!body.ok) throw new Error(`${method} failed`);
}

try {
  const cold: number[] = [];
  const search: number[] = [];
  const baseline: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(server.openUrl, { waitUntil: 'commit' });
    cold.push(await markAt(page, 'eo:results-shown', 1));

    await page.fill('input[name="cloudMax"]', '30');
    await page.click('form.filters button[type="submit"]');
    const shown = await markAt(page, 'eo:results-shown', 2);
    const started = await markAt(page, 'eo:search-start', 2);
    search.push(shown - started);
    await context.close();

    // The mirror keeps its last footprints answer (the page's search just asked for this one):
    // another search first, so the baseline is answered as the page's search was, not kept.
    await overHttp('catalog.footprints', { query: { 'eo:cloud_cover': { lte: 0 } } });
    baseline.push(
      await timeMs(() =>
        Promise.all([
          overHttp('catalog.search', { ...filtered, limit: 200, offset: 0 }),
          overHttp('catalog.footprints', filtered),
        ]),
      ),
    );
  }
  const ms = (v: number) => `${v.toFixed(0)} ms`;
  console.log(
    `ui: ${N.toLocaleString('en')} mirrored records, browser mode, headless Chromium 1280x800, offline, median of ${RUNS}${smoke ? ' (smoke)' : ''}`,
  );
  console.log(
    `  cold start to an interactive map (all ${N.toLocaleString('en')} footprints): ${ms(median(cold))}`,
  );
  const s = median(search);
  const b = median(baseline);
  console.log(
    `  search (cloud <= 30 %) to results shown: ${ms(s)} vs the backend calls alone over HTTP ${ms(b)} (${(s / b).toFixed(2)}x)`,
  );
  // The launch path (process start, the backend's start, a fresh page) is cold-start.ts's: this
  // figure reuses one warm backend, so it is the renderer's part only, reported without a target.
  reportVerdict(
    'ui',
    [
      {
        what: 'renderer part of a cold start (warm backend; see cold-start.ts)',
        value: median(cold),
        unit: 'ms',
        digits: 0,
      },
      { what: 'search to results shown / backend calls alone', value: s / b },
    ],
    { smoke },
  );
} finally {
  await browser.close();
  await server.close();
  await backend.close();
  fixture.close();
}
