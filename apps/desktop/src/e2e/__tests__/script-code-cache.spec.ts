/**
 * The window's Chromium switches (main/chromium-switches.ts) in real headless Chromium: a page's
 * module script, once Chromium stored its compiled code, is compiled from that code at the next
 * launch instead of parsed again. Without the switches Chromium 156 parses it anew every time
 * (docs/cold-start.md): this fails when a switch is dropped or stops doing its work.
 *
 * One persistent profile, as the app's window has (its session's code cache on disk): a first
 * load marks the script as seen, the second stores its code (Chromium caches a script seen
 * twice), the third is traced.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS } from '../chromium';
import { tempDir } from '../harness';

/** A module script of some size (Chromium leaves tiny scripts out of its code cache). */
function moduleScript(): string {
  const fns = Array.from(
    { length: 400 },
    (_, i) =>
      `export function step${i}(xs) {\n  let sum = ${i};\n  for (const x of xs) sum += (x * ${i + 1}) % 7;\n  return { id: 'step-${i}', sum, label: 'a step of the page, number ${i}' };\n}`,
  );
  const calls = Array.from({ length: 400 }, (_, i) => `step${i}([1, 2, 3])`).join(', ');
  return `${fns.join('\n')}\nglobalThis.__ran = [${calls}].length;\n`;
}

const SCRIPT = moduleScript();
const PAGE =
  '<!doctype html><meta charset="utf-8"><title>cache</title><script type="module" src="/entry.js"></script>';

let server: http.Server;
let origin: string;
let profile: string;
let context: BrowserContext;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/entry.js') {
      // As the app's content-named files are served (browser-mode renderer-files.ts).
      res.writeHead(200, {
        'content-type': 'text/javascript',
        'cache-control': 'public, max-age=31536000, immutable',
      });
      res.end(SCRIPT);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
    res.end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  profile = tempDir('eo-code-cache-');
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
  });
});

afterAll(async () => {
  await context?.close();
  await new Promise((resolve) => server?.close(resolve));
  if (profile) fs.rmSync(profile, { recursive: true, force: true });
});

/** Opens the page in `page` and waits for its script to have run. */
async function run(page: Page): Promise<void> {
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => (globalThis as { __ran?: number }).__ran === 400, null, {
    timeout: 10_000,
  });
}

/** Opens the page in a new tab, waits for its script to have run, closes the tab. */
async function load(): Promise<void> {
  const page = await context.newPage();
  try {
    await run(page);
  } finally {
    await page.close();
  }
}

/** The biggest entry of the profile's script code cache, in bytes (0: none yet). */
function storedCodeBytes(): number {
  const dir = path.join(profile, 'Default', 'Code Cache', 'js');
  if (!fs.existsSync(dir)) return 0;
  return Math.max(0, ...fs.readdirSync(dir).map((f) => fs.statSync(path.join(dir, f)).size));
}

interface TraceEvent {
  readonly name: string;
  readonly args?: {
    readonly data?: { readonly url?: string; readonly consumedCacheSize?: number };
  };
}

describe("the window's Chromium switches", () => {
  it("compile the page's module script from its code cache at the next launch", async () => {
    await load();
    await load();
    // Chromium writes the compiled code after the second run; bounded: 10 s.
    const deadline = Date.now() + 10_000;
    while (storedCodeBytes() < 4096) {
      if (Date.now() > deadline) {
        throw new Error(`Chromium stored no compiled code of the script within 10 s (${profile})`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const events: TraceEvent[] = [];
    cdp.on('Tracing.dataCollected', ({ value }) =>
      events.push(...(value as unknown as TraceEvent[])),
    );
    const complete = new Promise<void>((resolve) =>
      cdp.once('Tracing.tracingComplete', () => resolve()),
    );
    await cdp.send('Tracing.start', {
      traceConfig: { includedCategories: ['v8', 'devtools.timeline'] },
      transferMode: 'ReportEvents',
    });
    await run(page);
    await cdp.send('Tracing.end');
    await complete;
    await page.close();

    const ours = events.filter((e) => e.args?.data?.url === `${origin}/entry.js`);
    const compiled = ours.filter((e) => e.name === 'v8.compileModule');
    expect(compiled, 'the script compiled once in the traced launch').toHaveLength(1);
    expect(compiled[0]!.args?.data?.consumedCacheSize ?? 0).toBeGreaterThan(4096);
    expect(ours.filter((e) => e.name === 'v8.parseOnBackground')).toEqual([]);
  });
});
