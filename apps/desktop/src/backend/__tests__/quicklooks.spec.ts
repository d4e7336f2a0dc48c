/**
 * Mirrored quicklooks reach the renderer by one request shape over two paths, from the mirror
 * only: the backend's `quicklook`, browser mode's GET route (token in the query) and Electron's
 * `eo-quicklook:` scheme (main's handler -> the backend process's channel, bytes as a
 * Uint8Array). Against the real reference service, stopped before the pictures are read.
 */
import { PNG_SIGNATURE } from '@eo/domain';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserMode, type BrowserModeServer } from '../../browser-mode/server';
import type { FromBackend, PortLike, ToBackend } from '../../main/backend-protocol';
import { createBackendHost } from '../../main/backend-host';
import { serveBackend } from '../../main/backend-serve';
import { quicklookResponse } from '../../main/quicklook-protocol';
import { CSP } from '../../shared/csp';
import { memorySecrets } from '../secrets';
import {
  connectTo,
  startBackend,
  startService,
  syncToEnd,
  tempDir,
  type TestBackend,
} from './harness';

let t: TestBackend;
let server: BrowserModeServer;
let rendererDir: string;
let recordId: string;
let stored: Buffer;

beforeAll(async () => {
  const service = await startService(12);
  t = await connectTo(startBackend({ settings: { imagery: 'thumbnails' } }), service);
  expect(await syncToEnd(t, 'the sync with pictures')).toMatchObject({
    imagery: { thumbnails: 1 },
  });
  // Offline from here: every picture comes from the mirror.
  await service.close();
  const page = await t.call('catalog.search', { limit: 1 });
  recordId = page.items[0]!.id;
  const dir = fs.readdirSync(`${t.dataDir}/mirror.sqlite.imagery`);
  stored = fs.readFileSync(path.join(t.dataDir, 'mirror.sqlite.imagery', dir[0]!));
  rendererDir = tempDir('eo-quicklook-renderer-');
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html>');
  server = await startBrowserMode({ backend: t.backend, rendererDir, token: 'tok-quicklooks' });
});
afterAll(async () => {
  await server?.close();
  await t?.close();
  fs.rmSync(rendererDir, { recursive: true, force: true });
});

const isPng = (b: Uint8Array) => Buffer.from(b.subarray(0, 8)).equals(Buffer.from(PNG_SIGNATURE));

describe('quicklooks for the renderer', () => {
  it('the CSP (header and the page meta tag) allows the scheme for images, nothing else', () => {
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(
      fs.readFileSync(path.join(__dirname, '../../renderer/index.html'), 'utf8'),
    )![1]!;
    for (const policy of [CSP, meta]) {
      const directives = policy.split(';').map((d) => d.trim());
      expect(directives.filter((d) => d.includes('eo-quicklook'))).toEqual([
        "img-src 'self' data: blob: eo-quicklook:",
      ]);
    }
  });

  it('the backend answers the stored bytes, 404 when absent, 400 for a bad request', () => {
    const ok = t.backend.quicklook({ recordId, variant: 'thumbnail' });
    expect(ok.status).toBe(200);
    if (ok.status === 200) expect(Buffer.from(ok.bytes).equals(stored)).toBe(true);
    expect(t.backend.quicklook({ recordId, variant: 'overview' })).toEqual({ status: 404 });
    expect(t.backend.quicklook({ recordId: 'nope', variant: 'thumbnail' })).toEqual({
      status: 404,
    });
    for (const bad of [
      { recordId, variant: 'full' },
      { recordId: 'a b', variant: 'thumbnail' },
      { recordId: 'x'.repeat(201), variant: 'thumbnail' },
      { recordId, variant: 'thumbnail', extra: 1 },
      'thumbnail',
    ]) {
      expect(t.backend.quicklook(bad).status).toBe(400);
    }
  });

  it('browser mode: GET with the token, image/png; 404, 400 and 401 otherwise', async () => {
    const url = (variant: string, id: string, token = 'tok-quicklooks') =>
      `${server.url}/api/quicklooks/${variant}/${encodeURIComponent(id)}?token=${token}`;
    const res = await fetch(url('thumbnail', recordId));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const body = new Uint8Array(await res.arrayBuffer());
    expect(isPng(body)).toBe(true);
    expect(Buffer.from(body).equals(stored)).toBe(true);
    expect((await fetch(url('overview', recordId))).status).toBe(404);
    expect((await fetch(url('thumbnail', 'no-such-record'))).status).toBe(404);
    expect((await fetch(url('full', recordId))).status).toBe(400);
    expect((await fetch(url('thumbnail', 'a\u0001b'))).status).toBe(400);
    expect((await fetch(`${server.url}/api/quicklooks/thumbnail`)).status).toBe(401);
    expect((await fetch(url('thumbnail', recordId, 'wrong'))).status).toBe(401);
    expect(
      (await fetch(`${server.url}/api/quicklooks/thumbnail/a/b?token=tok-quicklooks`)).status,
    ).toBe(400);
  });

  it('Electron: the scheme answers through the backend process channel', async () => {
    // main's host and the backend process's serve, over an in-memory port pair that clones
    // every message as Electron's does.
    const toBackend: Array<(m: ToBackend) => void> = [];
    const toMain: Array<(m: FromBackend) => void> = [];
    const mainSide: PortLike<FromBackend, ToBackend> = {
      postMessage: (m) => setImmediate(() => toBackend.forEach((l) => l(structuredClone(m)))),
      onMessage: (l) => (toMain.push(l), () => undefined),
    };
    const backendSide: PortLike<ToBackend, FromBackend> = {
      postMessage: (m) => setImmediate(() => toMain.forEach((l) => l(structuredClone(m)))),
      onMessage: (l) => (toBackend.push(l), () => undefined),
    };
    serveBackend(backendSide, async () => ({
      backend: t.backend,
      embedded: null,
      close: async () => undefined,
    }));
    const host = createBackendHost(mainSide, memorySecrets());
    await host.init({ dataDir: t.dataDir, version: 'test' });

    const res = await quicklookResponse(
      `eo-quicklook://thumbnail/${encodeURIComponent(recordId)}`,
      host,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await res.arrayBuffer()).equals(stored)).toBe(true);
    expect((await quicklookResponse('eo-quicklook://overview/no-such', host)).status).toBe(404);
    expect((await quicklookResponse('eo-quicklook://full/x', host)).status).toBe(400);
    expect((await quicklookResponse('eo-quicklook://thumbnail/a%20b', host)).status).toBe(400);
    expect((await quicklookResponse('eo-quicklook://thumbnail/a/b', host)).status).toBe(400);
    expect((await quicklookResponse('https://thumbnail/x', host)).status).toBe(400);
  });
});
