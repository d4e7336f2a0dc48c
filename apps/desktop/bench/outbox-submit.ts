/**
 * Submitting N queued orders from the Outbox screen (500; --smoke: 20): browser mode in headless
 * Chromium, the reference service on 127.0.0.1. "Submit all" is clicked in the page; measured:
 * - time from the click to the batch's notification, against the same-run baseline of the same
 *   number of orders flushed by the backend alone (`outbox.flush` called in-process, no page):
 *   the ratio is what the UI costs the batch (progress events, list refreshes, rendering);
 * - responsiveness during the batch: frame times in the page (requestAnimationFrame deltas),
 *   p50 / p95 / max and frames over 50 ms, against the same page idle before the click.
 *
 *   bash scripts/pnpm.sh --filter @eo/desktop exec tsx bench/outbox-submit.ts [--smoke] [--no-build]
 */
import { DEMO } from '@eo/fixtures';
import { createApiKey, seedDemo, startServer } from '@eo/reference-service';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { reportVerdict } from '@eo/bench-kit';
import { chromium, type Page } from 'playwright-core';
import { createBackend, type Backend } from '../src/backend/backend';
import { memorySecrets } from '../src/backend/secrets';
import { startBrowserMode } from '../src/browser-mode/server';
import { BENCH_CHROMIUM, CHROMIUM_ARGS } from '../src/e2e/chromium';
import { ensureRendererBuilt, RENDERER_DIR } from '../src/e2e/renderer-build';
import { timeMs } from './backend-fixtures';

const smoke = process.argv.includes('--smoke');
const N = smoke ? 20 : 500;
if (!process.argv.includes('--no-build')) ensureRendererBuilt();

const temp = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));
const dirs: string[] = [];

/** A one-item tasking order over a field near Bologna, in the future. */
/**
 * The i-th order of batch `batch`. Each batch names its orders apart: the outbox refuses an
 * order the service already has (same project, names and scenes), and the first batch's orders
 * are on the service, and in the mirror, by the time the second is queued.
 */
function order(batch: number, i: number) {
  const [w, s] = [11.3 + (i % 20) * 0.01, 44.45 + Math.floor(i / 20) * 0.01];
  const [e, n] = [w + 0.008, s + 0.008];
  return {
    order_items: [
      {
        project_id: 'prj-demo-crops',
        name: `Bench field ${batch}.${i}`,
        geometry: {
          type: 'FeatureCollection',
          features: [
            {
              type: 'Feature',
              geometry: {
                type: 'Polygon',
                coordinates: [
                  [
                    [w, s],
                    [e, s],
                    [e, n],
                    [w, n],
                    [w, s],
                  ],
                ],
              },
            },
          ],
        },
        start_date: '2031-06-01T00:00:00Z',
        end_date: '2031-06-30T00:00:00Z',
      },
    ],
  };
}

async function call(backend: Backend, method: string, input?: unknown): Promise<unknown> {
  const r = await backend.dispatch(method, input);
  if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
  return r.value;
}

/**
 * A backend connected to the service with N orders queued. They are queued after the
 * connectivity watcher's first check (which would auto-flush them); its next check is an hour
 * away, so the batch starts when the bench says.
 */
let batches = 0;
async function queuedBackend(url: string, key: string): Promise<Backend> {
  const batch = ++batches;
  const dataDir = temp('eo-bench-outbox-');
  dirs.push(dataDir);
  const backend = createBackend({
    dataDir,
    secrets: memorySecrets(),
    mode: 'browser',
    connectivityIntervalMs: 3_600_000,
  });
  const online = new Promise<void>((resolve) => {
    const off = backend.events.on('connectivity.changed', (c) => {
      if (c.state === 'online') {
        off();
        resolve();
      }
    });
  });
  await call(backend, 'settings.update', { serviceUrl: url, apiKey: key });
  await online;
  await new Promise((r) => setTimeout(r, 500));
  for (let i = 0; i < N; i++)
    await call(backend, 'outbox.enqueue', { kind: 'order', input: order(batch, i) });
  const { counts } = (await call(backend, 'outbox.list', { states: ['queued'] })) as {
    counts: Record<string, number>;
  };
  if (counts['queued'] !== N) throw new Error(`expected ${N} queued, found ${counts['queued']}`);
  // A team that sends orders without the review: "Submit all" (and only it, the watcher's next
  // check being an hour away) sends the orders; by default they wait for their confirmation.
  await call(backend, 'settings.update', { autoSendOrders: true });
  return backend;
}

/**
 * Starts recording frame times in the page; `stop` returns them (ms) and ends the loop. Each
 * recording has its own id: a loop whose id is no longer current stops at its next frame, so
 * the idle recording's last pending frame callback cannot go on pushing into the next
 * recording (it did: every busy frame was counted twice). Page code is a string: tsx's
 * name-keeping helpers do not exist in the page.
 */
async function recordFrames(page: Page): Promise<() => Promise<number[]>> {
  await page.evaluate(`(() => {
    const id = (window.__recorder = (window.__recorder || 0) + 1);
    const frames = (window.__frames = []);
    let last = 0;
    const tick = (t) => {
      if (window.__recorder !== id) return;
      frames.push(t - last);
      last = t;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame((t) => {
      last = t;
      requestAnimationFrame(tick);
    });
  })()`);
  return () =>
    page.evaluate<number[]>('(window.__recorder = (window.__recorder || 0) + 1, window.__frames)');
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

const serviceDir = temp('eo-bench-outbox-service-');
dirs.push(serviceDir);
// The worker stays idle: fulfilment is not what is measured.
const service = await startServer({
  dataDir: serviceDir,
  logLevel: false,
  stepDelayMs: 0,
  workerTickMs: 0,
});
const now = Date.now();
seedDemo(service.app.ctx.sqlite, { nowMs: now, scenes: 20 });
const key = createApiKey(
  service.app.ctx.sqlite,
  { orgId: DEMO.orgId, userId: DEMO.users[0].id, label: 'bench' },
  now,
);
const countOrders = () =>
  (service.app.ctx.sqlite.prepare('SELECT count(*) AS n FROM orders').get() as { n: number }).n;

const browser = await chromium.launch({
  executablePath: BENCH_CHROMIUM,
  args: CHROMIUM_ARGS,
});
const backends: Backend[] = [];
try {
  // Baseline: the backend alone.
  const alone = await queuedBackend(service.url, key);
  backends.push(alone);
  const before = countOrders();
  const baselineMs = await timeMs(() => call(alone, 'outbox.flush'));
  if (countOrders() - before !== N) throw new Error('baseline: not every order was created');

  // The same from the Outbox screen.
  const backend = await queuedBackend(service.url, key);
  backends.push(backend);
  const server = await startBrowserMode({ backend, rendererDir: RENDERER_DIR });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(server.openUrl);
  await page.getByRole('button', { name: /^Outbox/ }).click();
  const submit = page.locator('[data-test="submit-all"]');
  // Enabled once the page knows the service is online and N entries wait.
  await page.locator('[data-test="submit-all"]:enabled').waitFor({ timeout: 30_000 });
  const stopIdle = await recordFrames(page);
  await page.waitForTimeout(smoke ? 500 : 2000);
  const idle = await stopIdle();

  const stopBusy = await recordFrames(page);
  const created = countOrders();
  const t0 = performance.now();
  await submit.click();
  await page.locator('[data-test="batch-notification"]').waitFor({ timeout: 600_000 });
  const uiMs = performance.now() - t0;
  const busy = await stopBusy();
  if (countOrders() - created !== N) throw new Error('UI: not every order was created');
  await server.close();

  const f = (v: number) => `${v.toFixed(1)} ms`;
  console.log(
    `outbox submit: ${N} queued one-item orders, browser mode, headless Chromium 1280x800, reference service on 127.0.0.1${smoke ? ' (smoke)' : ''}`,
  );
  console.log(
    `  Submit all to the batch notification: ${(uiMs / 1000).toFixed(2)} s (${((N * 1000) / uiMs).toFixed(0)} orders/s) vs the backend's flush alone ${(baselineMs / 1000).toFixed(2)} s (${((N * 1000) / baselineMs).toFixed(0)} orders/s): ${(uiMs / baselineMs).toFixed(2)}x`,
  );
  console.log(
    `  frames during the batch (${busy.length}): p50 ${f(pct(busy, 50))}, p95 ${f(pct(busy, 95))}, max ${f(Math.max(...busy))}, over 50 ms: ${busy.filter((x) => x > 50).length}; idle page p95 ${f(pct(idle, 95))} (${(pct(busy, 95) / pct(idle, 95)).toFixed(2)}x)`,
  );
  // No target is written down for this bench: its figures are reported, not judged.
  reportVerdict('outbox submit', [
    { what: 'Submit all / backend flush alone', value: uiMs / baselineMs },
    {
      what: 'frames over 50 ms during the batch',
      value: busy.filter((x) => x > 50).length,
      digits: 0,
    },
  ]);
} finally {
  await browser.close();
  for (const b of backends) await b.close();
  await service.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
}
