/**
 * A benchmark page in headless Chromium: builds `root` (an index.html and its script) with vite
 * into a temp folder, serves it on 127.0.0.1, opens it in /usr/bin/chromium through
 * playwright-core (never downloads a browser) at 1280x800, waits for the page to publish
 * `window.__benchResult` (or `__benchError`) and returns it. Used by footprints.ts, quicklooks.ts
 * and pan.ts.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { build, type PluginOption } from 'vite';
import { BENCH_CHROMIUM } from '../src/e2e/chromium';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

function serve(dir: string): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const file = path.join(dir, url.pathname === '/' ? 'index.html' : url.pathname);
    if (!file.startsWith(dir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** What a trace records: each thread's tasks and what runs in them (scripts, style, paint, raster). */
const TRACE_CATEGORIES = [
  'toplevel',
  'blink.user_timing',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'blink',
  'cc',
  'gpu',
];

/** What a bench page publishes on its window. */
interface PageGlobals {
  __benchResult?: unknown;
  __benchError?: string;
}

export async function runBenchPage<R>(options: {
  /** The folder holding the page's index.html. */
  readonly root: string;
  /** Query string of the page, without `?`. */
  readonly query: string;
  /** Extra Chromium flags (e.g. `--js-flags=--expose-gc`). */
  readonly chromiumArgs?: readonly string[];
  readonly timeoutMs?: number;
  /** Vite plugins the page needs (e.g. the offline basemap's). */
  readonly plugins?: PluginOption[];
  /** Write a Chromium performance trace of the page's run to this file (bench/trace-summary.ts reads it). */
  readonly trace?: string;
}): Promise<R> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-bench-page-'));
  try {
    await build({
      root: options.root,
      configFile: false,
      logLevel: 'warn',
      plugins: options.plugins ?? [],
      build: { outDir, emptyOutDir: true },
    });
    const server = await serve(outDir);
    const { port } = server.address() as AddressInfo;
    const browser = await chromium.launch({
      executablePath: BENCH_CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', ...(options.chromiumArgs ?? [])],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      if (options.trace)
        await browser.startTracing(page, { path: options.trace, categories: TRACE_CATEGORIES });
      await page.goto(`http://127.0.0.1:${port}/?${options.query}`, { waitUntil: 'commit' });
      // These callbacks are serialised and run in the page, where globalThis is its window.
      await page.waitForFunction(
        () => (globalThis as PageGlobals).__benchResult ?? (globalThis as PageGlobals).__benchError,
        null,
        { timeout: options.timeoutMs ?? 600_000 },
      );
      const error = await page.evaluate(() => (globalThis as PageGlobals).__benchError);
      if (error) throw new Error(`benchmark page failed: ${error}`);
      const result = (await page.evaluate(() => (globalThis as PageGlobals).__benchResult)) as R;
      if (options.trace) await browser.stopTracing();
      return result;
    } finally {
      await browser.close();
      server.close();
    }
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}
