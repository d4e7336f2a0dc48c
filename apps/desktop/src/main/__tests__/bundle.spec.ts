/**
 * The built app, not the sources: electron-vite builds into test-output/, then the backend's
 * utilityProcess bundle runs under plain Node (child_process IPC stands in for parentPort):
 * migrations found next to the bundle, native and server dependencies resolved, the embedded
 * service seeded, a sync and an offline search answered. The preload must be CommonJS that
 * requires nothing but electron (sandboxed preloads cannot load anything else).
 */
import { presetSettings, TEST_SETTINGS } from '../../backend/__tests__/harness';
import { execFileSync, fork } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeFootprints } from '../../shared/contract';
import type { FromBackend, ToBackend } from '../backend-protocol';
import { Worker } from 'node:worker_threads';
import { buildCatalogRecord } from '@eo/domain/testing';
import { openMirrorDatabase } from '@eo/sync';

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const outDir = path.join(appDir, 'test-output', 'bundle');

beforeAll(() => {
  fs.rmSync(outDir, { recursive: true, force: true });
  const pkg = createRequire(path.join(appDir, 'package.json')).resolve(
    'electron-vite/package.json',
  );
  const bin = path.join(path.dirname(pkg), 'bin', 'electron-vite.js');
  execFileSync(process.execPath, [bin, 'build', '--outDir', outDir, '--logLevel', 'error'], {
    cwd: appDir,
    stdio: 'pipe',
  });
}, 120_000);
afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

/** The chunks `entry` loads as it is required (not its `import()`s), itself included. */
function staticChunks(entry: string): string[] {
  const seen = new Set<string>([entry]);
  for (const file of seen) {
    const code = fs.readFileSync(path.join(outDir, 'main', file), 'utf8');
    // A lazy import() is bundled as `Promise.resolve().then(() => require("./chunk"))`.
    for (const m of code.matchAll(/(?<!=> )require\("\.\/([^"]+)"\)/g)) seen.add(m[1]!);
  }
  return [...seen];
}

/** What the chunks were built from (the bundle names each module's path in a comment). */
function sourcesOf(chunks: readonly string[]): string {
  return chunks.map((c) => fs.readFileSync(path.join(outDir, 'main', c), 'utf8')).join('\n');
}

describe('built bundle', () => {
  it('loads no zod or schemas before the browser-mode launcher listens', () => {
    const launcher = sourcesOf(staticChunks('browser-mode.cjs'));
    expect(launcher).toContain('src/browser-mode/server.ts');
    expect(launcher).not.toMatch(/node_modules\/\.pnpm\/zod@|packages\/domain\/src/);
    expect(launcher).not.toMatch(/require\("zod"\)/);
  });

  it("loads the backend's first screen without the file formats, zod and drizzle inlined", () => {
    const launch = staticChunks('backend-process.cjs');
    const code = sourcesOf(launch);
    // The backend itself is there (the check below could not fail otherwise)...
    expect(code).toMatch(/packages\/sync\/src/);
    expect(code).toMatch(/node_modules\/\.pnpm\/zod@/);
    // ...but not the readers and writers of field files (XML, projections: loaded on first use).
    expect(code).not.toMatch(/node_modules\/\.pnpm\/(@xmldom|proj4|papaparse|fflate)/);
    expect(code).not.toMatch(/packages\/formats\/src\/(import|export)\.ts/);
    // Bundled, not resolved file by file from node_modules; better-sqlite3 (native) stays out.
    expect(code).not.toMatch(/require\("(zod|drizzle-orm)[/"]/);
    expect(code).toMatch(/require\("better-sqlite3"\)/);
  });

  it("builds the service's render thread as an entry of its own, which renders a quicklook", async () => {
    // The pool names the built entry (rewritten from its TypeScript source's name)...
    const chunks = fs.readdirSync(path.join(outDir, 'main')).filter((f) => f.endsWith('.cjs'));
    const namers = chunks.filter((c) =>
      fs.readFileSync(path.join(outDir, 'main', c), 'utf8').includes('"./render-thread.cjs"'),
    );
    expect(namers.length).toBe(1);
    expect(sourcesOf(chunks)).not.toContain('./thread-entry.ts');
    // The same for the field file importer's thread (@eo/formats).
    expect(sourcesOf(chunks)).toContain('"./import-thread.cjs"');
    expect(sourcesOf(chunks)).not.toContain('./import-thread.ts');
    expect(fs.existsSync(path.join(outDir, 'main', 'import-thread.cjs'))).toBe(true);
    // ...and for the field package check's (@eo/sync).
    expect(sourcesOf(chunks)).toContain('"./package-check-thread.cjs"');
    expect(sourcesOf(chunks)).not.toContain('./check-thread.ts');
    expect(fs.existsSync(path.join(outDir, 'main', 'package-check-thread.cjs'))).toBe(true);
    // ...and for the sync's write thread (@eo/sync).
    expect(sourcesOf(chunks)).toContain('"./mirror-write-thread.cjs"');
    expect(sourcesOf(chunks)).not.toContain('./write-thread-entry.ts');
    expect(fs.existsSync(path.join(outDir, 'main', 'mirror-write-thread.cjs'))).toBe(true);
    // ...and that entry, run as a plain Node worker, serves the service's jobs.
    const thread = new Worker(path.join(outDir, 'main', 'render-thread.cjs'));
    try {
      const scene = {
        id: 'S1',
        corners: [
          [10, 46],
          [10.2, 46],
          [10.2, 45.8],
          [10, 45.8],
        ],
        datetimeMs: Date.UTC(2024, 5, 1),
        cloudCover: 20,
        sunElevation: 50,
        sunAzimuth: 150,
      };
      const answer = await new Promise<{ value?: Uint8Array; error?: unknown }>(
        (resolve, reject) => {
          thread.on('message', (m: { id?: number; value?: Uint8Array; error?: unknown }) => {
            if (m.id === 1) resolve(m);
          });
          thread.once('error', reject);
          thread.postMessage({ id: 1, kind: 'quicklook', input: { scene, variant: 'thumbnail' } });
        },
      );
      expect(answer.error).toBeUndefined();
      expect(Buffer.from(answer.value!.subarray(1, 4)).toString('latin1')).toBe('PNG');
    } finally {
      await thread.terminate();
    }
  });

  it("builds the sync's write thread as an entry of its own, which commits a batch", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-bundle-writes-'));
    const db = openMirrorDatabase(path.join(dir, 'mirror.db'));
    const thread = new Worker(path.join(outDir, 'main', 'mirror-write-thread.cjs'));
    try {
      db.sqlite
        .prepare(
          `INSERT INTO sync_state (resource, pass_id, plan, part, checkpoint, started_at_us, seen)
           VALUES ('catalogs', 'p1', '', 0, 0, 0, 0)`,
        )
        .run();
      const answer = await new Promise<{ id: number; done?: true; failed?: string }>(
        (resolve, reject) => {
          thread.on('message', resolve);
          thread.once('error', reject);
          thread.postMessage({ kind: 'open', file: db.file });
          thread.postMessage({
            kind: 'batch',
            id: 1,
            batch: {
              resource: 'catalogs',
              passId: 'p1',
              records: { items: [buildCatalogRecord({ id: 'cat-bundled' })] },
              pageIssues: [],
              where: { part: 0, checkpoint: 1, seen: 1, total: 1 },
            },
          });
        },
      );
      expect(answer).toEqual({ id: 1, done: true });
      const ids = db.sqlite.prepare('SELECT id FROM catalog_records').pluck().all();
      expect(ids).toEqual(['cat-bundled']);
    } finally {
      await thread.terminate();
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('has the preload as CommonJS that requires only electron', () => {
    const preload = fs.readFileSync(path.join(outDir, 'preload', 'index.cjs'), 'utf8');
    const required = [...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1]);
    expect(new Set(required)).toEqual(new Set(['electron']));
    expect(preload).not.toMatch(/^\s*import\s/m);
    expect(preload).toContain('exposeInMainWorld');
  });

  it("tells every copy of zod in the renderer's scripts not to compile code (the page's CSP)", () => {
    const assets = path.join(outDir, 'renderer', 'assets');
    const scripts = fs
      .readdirSync(assets)
      .filter((f) => f.endsWith('.js'))
      .map((f) => ({ f, code: fs.readFileSync(path.join(assets, f), 'utf8') }));
    // Zod's own question whether it may compile (`allowsEval`), minified or not.
    const zods = scripts.filter(({ code }) => /userAgent\?\.includes\([`"']Cloudflare/.test(code));
    // The page's first chunk and the raster worker: each script runs a zod of its own.
    expect(zods.length).toBeGreaterThanOrEqual(2);
    expect(zods.some(({ f }) => f.startsWith('raster.worker'))).toBe(true);
    // schemas-without-eval.ts, as its build writes it: `config({ jitless: true })` minified.
    const untold = zods.filter(({ code }) => !/jitless:\s*(!0|true)\}/.test(code));
    expect(untold.map(({ f }) => f)).toEqual([]);
  });

  it('runs the backend process: embedded service, sync, offline search', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-bundle-'));
    // No pictures: the embedded demo's thumbnails would take the service half a minute.
    presetSettings(dataDir, TEST_SETTINGS);
    // 'advanced' (structured clone, as Electron's utilityProcess): binary answers stay bytes.
    const child = fork(path.join(outDir, 'main', 'backend-process.cjs'), [], {
      stdio: 'pipe',
      serialization: 'advanced',
    });
    const got: FromBackend[] = [];
    const waitFor = (pred: (m: FromBackend) => boolean) =>
      new Promise<FromBackend>((resolve, reject) => {
        const found = got.find(pred);
        if (found) return resolve(found);
        const l = (m: FromBackend) => {
          if (pred(m)) {
            child.off('message', l);
            resolve(m);
          }
        };
        child.on('message', l);
        child.once('exit', (code) => reject(new Error(`backend exited with ${code}`)));
      });
    child.on('message', (m: FromBackend) => got.push(m));
    const send = (m: ToBackend) => child.send(m);
    try {
      send({ type: 'init', dataDir, apiKey: null, keyStorage: 'os-keychain', version: '1.0.0' });
      const ready = await waitFor((m) => m.type === 'ready' || m.type === 'fatal');
      expect(ready.type).toBe('ready');
      expect(got.some((m) => m.type === 'secret.set' && typeof m.key === 'string')).toBe(true);
      send({ type: 'call', id: 1, method: 'sync.run', input: {} });
      await waitFor((m) => m.type === 'event' && m.event === 'sync.finished');
      send({ type: 'call', id: 2, method: 'catalog.search', input: { limit: 5 } });
      const r = await waitFor((m) => m.type === 'result' && m.id === 2);
      expect(r).toMatchObject({ result: { ok: true, value: { total: expect.any(Number) } } });
      const total = (r as { result: { value: { total: number } } }).result.value.total;
      expect(total).toBeGreaterThan(0);
      send({ type: 'call', id: 3, method: 'catalog.footprints', input: {} });
      const fp = await waitFor((m) => m.type === 'result' && m.id === 3);
      const bytes = (fp as { result: { value: Uint8Array } }).result.value;
      expect(bytes).toBeInstanceOf(Uint8Array);
      expect(decodeFootprints(bytes).ids).toHaveLength(total);
      send({ type: 'shutdown' });
      await waitFor((m) => m.type === 'closed');
    } finally {
      child.kill();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
