/**
 * What the in-page benches share (footprints.ts, pan.ts): a page folder of src/renderer/map
 * built with vite into a temp folder, served on 127.0.0.1, opened in /usr/bin/chromium with
 * playwright-core (never downloads a browser), and the figures the page publishes on its
 * window as `__benchResult` (or `__benchError`).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { build, type PluginOption } from 'vite';

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

/** What the page publishes on its window. */
interface PageGlobals {
  __benchResult?: unknown;
  __benchError?: string;
}

/**
 * Build the page in `root` (with the vite `plugins` it needs), open it with `query` at 1280x800 and wait (up to 10 minutes) for
 * its result.
 */
export async function runBenchPage<T>(
  root: string,
  query: string,
  plugins: PluginOption[] = [],
): Promise<T> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-page-bench-'));
  try {
    await build({
      root,
      configFile: false,
      logLevel: 'warn',
      plugins,
      build: { outDir, emptyOutDir: true },
    });
    const server = await serve(outDir);
    const { port } = server.address() as AddressInfo;
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(`http://127.0.0.1:${port}/?${query}`, { waitUntil: 'commit' });
      // These callbacks are serialised and run in the page, where globalThis is its window.
      await page.waitForFunction(
        () => (globalThis as PageGlobals).__benchResult ?? (globalThis as PageGlobals).__benchError,
        null,
        { timeout: 600_000 },
      );
      const error = await page.evaluate(() => (globalThis as PageGlobals).__benchError);
      if (error) throw new Error(`benchmark page failed: ${error}`);
      return (await page.evaluate(() => (globalThis as PageGlobals).__benchResult)) as T;
    } finally {
      await browser.close();
      server.close();
    }
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}
