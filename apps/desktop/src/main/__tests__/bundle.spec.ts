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

describe('built bundle', () => {
  it('has the preload as CommonJS that requires only electron', () => {
    const preload = fs.readFileSync(path.join(outDir, 'preload', 'index.cjs'), 'utf8');
    const required = [...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1]);
    expect(new Set(required)).toEqual(new Set(['electron']));
    expect(preload).not.toMatch(/^\s*import\s/m);
    expect(preload).toContain('exposeInMainWorld');
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
