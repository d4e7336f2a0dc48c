import { square } from '@eo/formats/testing';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackend, tempDir, until, type TestBackend } from '../../backend/__tests__/harness';
import { ESCAPING_PATHS } from '../../backend/__tests__/renderer-escapes';
import { decodeFootprints } from '../../shared/contract';
import { CSP, startBrowserMode, type BrowserModeServer } from '../server';

let t: TestBackend;
let server: BrowserModeServer;
let root: string;
let rendererDir: string;
let port: number;

beforeAll(async () => {
  root = tempDir('eo-desktop-renderer-');
  rendererDir = path.join(root, 'renderer');
  fs.mkdirSync(rendererDir);
  fs.writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><p>app</p>');
  fs.mkdirSync(path.join(rendererDir, 'assets'));
  fs.writeFileSync(path.join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  fs.writeFileSync(path.join(root, 'secret.txt'), 'outside');
  t = startBackend();
  server = await startBrowserMode({ backend: t.backend, rendererDir, token: 'test-token-123' });
  port = Number(new URL(server.url).port);
});
afterAll(async () => {
  await server?.close();
  await t?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

interface Res {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** node:http, so Host and Origin can be set like a hostile page would. */
function request(opts: {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}): Promise<Res> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: opts.method ?? 'GET',
        path: opts.path,
        headers: { host: `127.0.0.1:${port}`, ...opts.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

const call = (method: string, body: unknown, headers: Record<string, string> = {}) =>
  request({
    method: 'POST',
    path: `/api/call/${method}`,
    headers: {
      authorization: 'Bearer test-token-123',
      'content-type': 'application/json',
      ...headers,
    },
    body: body === undefined ? '' : JSON.stringify(body),
  });

describe('browser mode server', () => {
  it('prints a URL with the token in the fragment', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.openUrl).toBe(`${server.url}/#token=test-token-123`);
  });

  it('serves the renderer with a strict CSP, and client routes fall back to the page', async () => {
    const page = await request({ path: '/' });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(CSP);
    expect(CSP).toContain("script-src 'self'");
    expect(CSP).not.toContain('unsafe-eval');
    expect(page.body).toContain('app');
    expect((await request({ path: '/catalog/view' })).body).toContain('app');
    const js = await request({ path: '/assets/app.js' });
    expect(js.headers['content-type']).toContain('text/javascript');
    expect(js.headers['x-content-type-options']).toBe('nosniff');
    expect((await request({ path: '/assets/missing.js' })).status).toBe(404);
  });

  it('answers 304 for a file the browser kept, and a changed file in full', async () => {
    const first = await request({ path: '/assets/app.js' });
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^"[0-9a-z]+-[0-9a-z]+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    const kept = await request({ path: '/assets/app.js', headers: { 'if-none-match': etag } });
    expect(kept.status).toBe(304);
    expect(kept.body).toBe('');
    expect(kept.headers.etag).toBe(etag);
    const weakInList = `"other", W/${etag}`;
    expect(
      (await request({ path: '/assets/app.js', headers: { 'if-none-match': weakInList } })).status,
    ).toBe(304);
    // The page itself is never kept: its CSP and its files' names come with it.
    const page = await request({ path: '/', headers: { 'if-none-match': '*' } });
    expect([page.status, page.headers['cache-control'], page.headers.etag]).toEqual([
      200,
      'no-store',
      undefined,
    ]);
    // Hostile or stale validators get the file.
    for (const bad of ['"nope"', 'x'.repeat(5000), `${etag.slice(0, -1)}x"`, ',,,', 'W/'])
      expect(
        (await request({ path: '/assets/app.js', headers: { 'if-none-match': bad } })).body,
      ).toBe('console.log(1)');
    // A rebuild changes the file: the old validator no longer matches.
    const file = path.join(rendererDir, 'assets', 'app.js');
    fs.writeFileSync(file, 'console.log(22)');
    try {
      const changed = await request({ path: '/assets/app.js', headers: { 'if-none-match': etag } });
      expect([changed.status, changed.body]).toEqual([200, 'console.log(22)']);
      expect(changed.headers.etag).not.toBe(etag);
    } finally {
      fs.writeFileSync(file, 'console.log(1)');
    }
  });

  it("lets the browser keep the build's content-named files without asking again", async () => {
    // The build names its scripts, styles and data by their content (`assets/<name>-<hash>.js`):
    // the browser keeps them (no request on the next launch, the compiled code kept too).
    const named = path.join(rendererDir, 'assets', 'index-C8Y6_-Ef.js');
    fs.writeFileSync(named, 'console.log(3)');
    try {
      const kept = await request({ path: '/assets/index-C8Y6_-Ef.js' });
      expect([kept.status, kept.headers['cache-control'], kept.body]).toEqual([
        200,
        'public, max-age=31536000, immutable',
        'console.log(3)',
      ]);
      const again = await request({
        path: '/assets/index-C8Y6_-Ef.js',
        headers: { 'if-none-match': kept.headers.etag! },
      });
      expect([again.status, again.headers['cache-control']]).toEqual([
        304,
        'public, max-age=31536000, immutable',
      ]);
      // Not content-named (no hash, or not the build's folder): asked for again each time.
      fs.writeFileSync(path.join(rendererDir, 'index-C8Y6_-Ef.js'), 'console.log(4)');
      for (const other of ['/assets/app.js', '/index-C8Y6_-Ef.js'])
        expect((await request({ path: other })).headers['cache-control']).toBe('no-cache');
    } finally {
      fs.rmSync(named);
      fs.rmSync(path.join(rendererDir, 'index-C8Y6_-Ef.js'));
    }
  });

  it('never serves files outside the renderer dir', async () => {
    for (const p of ESCAPING_PATHS) {
      const r = await request({ path: p });
      expect(r.body).not.toContain('outside');
    }
  });

  it('refuses a foreign Host (DNS rebinding) and a foreign Origin', async () => {
    expect((await request({ path: '/', headers: { host: `evil.example:${port}` } })).status).toBe(
      421,
    );
    expect(
      (await call('settings.get', {}, { host: `127.0.0.1.evil.example:${port}` })).status,
    ).toBe(421);
    expect((await call('settings.get', {}, { origin: 'http://evil.example' })).status).toBe(403);
    expect((await call('settings.get', {}, { origin: `http://127.0.0.1:${port}` })).status).toBe(
      200,
    );
    expect((await call('settings.get', {}, { host: `localhost:${port}` })).status).toBe(200);
  });

  it('requires the token on every call', async () => {
    expect((await call('settings.get', {}, { authorization: '' })).status).toBe(401);
    expect((await call('settings.get', {}, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await call('settings.get', {}, { authorization: 'test-token-123' })).status).toBe(401);
    const ok = await call('settings.get', undefined);
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toMatchObject({ ok: true, value: { apiKeySet: false } });
  });

  it('answers unknown methods with 404, bad arguments with 400 and their paths', async () => {
    expect((await call('settings.steal', {})).status).toBe(404);
    expect((await call('toString', {})).status).toBe(404);
    const bad = await call('tiles.get', { z: 1, x: 5, y: 0 });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', details: { issues: [{ path: 'x' }] } },
    });
    const notJson = await call('settings.get', undefined, { 'content-type': 'text/plain' });
    expect(notJson.status).toBe(415);
    const broken = await request({
      method: 'POST',
      path: '/api/call/settings.get',
      headers: { authorization: 'Bearer test-token-123', 'content-type': 'application/json' },
      body: '{nope',
    });
    expect(broken.status).toBe(400);
    expect((await call('sync.run', {})).status).toBe(409); // not configured
  });

  it('answers catalog.footprints with its bytes (octet-stream), its errors as JSON envelopes', async () => {
    const res = await fetch(`${server.url}/api/call/catalog.footprints`, {
      method: 'POST',
      headers: { authorization: 'Bearer test-token-123', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Number(res.headers.get('content-length'))).toBe(bytes.byteLength);
    expect(decodeFootprints(bytes).ids).toEqual([]);
    const bad = await call('catalog.footprints', { bbox: [0, 0, 200, 1] });
    expect([bad.status, bad.headers['content-type']]).toEqual([
      400,
      'application/json; charset=utf-8',
    ]);
    expect(JSON.parse(bad.body)).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
  });

  it('takes a field file of several MB for files.preview only; 1 MB bodies elsewhere', async () => {
    // A 2 MB GeoJSON (one square, padded with a long description): past the 1 MB of other calls.
    const big = JSON.stringify({
      type: 'Feature',
      properties: { name: 'Big field', description: 'x'.repeat(2 * 1024 * 1024) },
      geometry: { type: 'Polygon', coordinates: [square(5, 45, 0.1)] },
    });
    const base64 = Buffer.from(big).toString('base64');
    const r = await call('files.preview', { name: 'big.geojson', base64 });
    expect(r.status).toBe(200);
    const preview = JSON.parse(r.body) as {
      ok: true;
      value: { features: Array<{ name: string }> };
    };
    expect(preview.value.features.map((f) => f.name)).toEqual(['Big field']);
    expect((await call('catalog.get', { id: 'x'.repeat(2 * 1024 * 1024) })).status).toBe(413);
  });

  it('takes a handover file past 1 MB to the backend (outbox.receiveHandover), which reads it', async () => {
    const padded = JSON.stringify({ format: 'notes', padding: 'x'.repeat(2 * 1024 * 1024) });
    const base64 = Buffer.from(padded).toString('base64');
    const r = await call('outbox.receiveHandover', { name: 'work.json', base64 });
    expect(r.status).not.toBe(413);
    expect(JSON.parse(r.body)).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_argument',
        message: 'work.json: not a handover file of EO Field Desk',
      },
    });
  });

  it('takes the AOIs of a field file at once (outbox.enqueueAll) in a body past 1 MB', async () => {
    // 300 AOIs of 300 positions each: about 2.5 MB of JSON.
    const ring = (k: number): Array<[number, number]> => {
      const pts = Array.from({ length: 299 }, (_, i): [number, number] => {
        const a = (2 * Math.PI * i) / 299;
        return [
          10 + (k % 20) * 0.1 + 0.04 * Math.cos(a),
          45 + Math.floor(k / 20) * 0.1 + 0.04 * Math.sin(a),
        ];
      });
      return [...pts, pts[0]!];
    };
    const creates = Array.from({ length: 300 }, (_, k) => ({
      kind: 'aoi',
      input: {
        name: `Parcel ${k + 1}`,
        description: '',
        satellite_id: 'sat-aurora-1',
        provider: 'field-team',
        project_id: 'prj-demo-crops',
        geometry: { type: 'Polygon', coordinates: [ring(k)] },
        item_ids: ['scene-1'],
      },
    }));
    expect(JSON.stringify({ creates }).length).toBeGreaterThan(1024 * 1024);
    const r = await call('outbox.enqueueAll', { creates });
    expect(r.status).toBe(200);
    expect((JSON.parse(r.body) as { value: unknown[] }).value).toHaveLength(300);
  });

  it('streams events over SSE to token holders only', async () => {
    expect((await request({ path: '/api/events?token=wrong' })).status).toBe(401);
    const frames = await new Promise<string>((resolve, reject) => {
      const req = http.get(
        { host: '127.0.0.1', port, path: '/api/events?token=test-token-123' },
        (res) => {
          expect(res.headers['content-type']).toBe('text/event-stream');
          let buf = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => {
            buf += c;
            if (buf.includes(': connected'))
              t.backend.events.emit('outbox.changed', { pending: 3 });
            if (buf.includes('event: outbox.changed')) {
              req.destroy();
              resolve(buf);
            }
          });
        },
      );
      req.on('error', reject);
    });
    expect(frames).toContain('event: outbox.changed\ndata: {"pending":3}\n\n');
  });
});

describe('browser mode server, the port it prefers (the last launch’s)', () => {
  const portOf = (s: BrowserModeServer) => Number(new URL(s.url).port);
  /** A port free now: listened on, then let go. */
  async function freePort(): Promise<number> {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const p = (probe.address() as net.AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    return p;
  }

  it('listens on it when it is free, elsewhere when it is taken; an asked port wins', async () => {
    const preferred = await freePort();
    const first = await startBrowserMode({
      backend: t.backend,
      rendererDir,
      preferredPort: preferred,
    });
    try {
      expect(portOf(first)).toBe(preferred);
      // Taken (by the first): any free port, and the server answers there.
      const second = await startBrowserMode({
        backend: t.backend,
        rendererDir,
        preferredPort: preferred,
      });
      try {
        expect(portOf(second)).not.toBe(preferred);
        expect((await fetch(`${second.url}/`)).status).toBe(200);
      } finally {
        await second.close();
      }
      // An asked port is not traded for another: taken, the start fails.
      await expect(
        startBrowserMode({ backend: t.backend, rendererDir, port: preferred, preferredPort: 0 }),
      ).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await first.close();
    }
  });
});

describe('browser mode server, backend still starting (cold start)', () => {
  it('serves the page at once; calls and events wait for the backend', async () => {
    const late = startBackend();
    let ready!: (b: TestBackend['backend']) => void;
    const starting = startBrowserMode({
      backend: new Promise((resolve) => (ready = resolve)),
      rendererDir,
      token: 'test-token-456',
    });
    const s = await starting;
    try {
      const base = { host: '127.0.0.1', port: Number(new URL(s.url).port) };
      const headers = { host: `127.0.0.1:${base.port}` };
      const get = (p: string) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          http
            .get({ ...base, path: p, headers }, (res) => {
              let body = '';
              res.on('data', (c: Buffer) => (body += c.toString()));
              res.on('end', () => resolve({ status: res.statusCode!, body }));
            })
            .on('error', reject);
        });
      expect(await get('/')).toMatchObject({ status: 200, body: '<!doctype html><p>app</p>' });
      let answered = false;
      const info = new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(
          {
            ...base,
            method: 'POST',
            path: '/api/call/app.info',
            headers: {
              ...headers,
              authorization: 'Bearer test-token-456',
              'content-type': 'application/json',
            },
          },
          (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () => ((answered = true), resolve({ status: res.statusCode!, body })));
          },
        );
        req.on('error', reject);
        req.end('');
      });
      await new Promise((r) => setTimeout(r, 50));
      expect(answered).toBe(false);
      ready(late.backend);
      const r = await info;
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body)).toMatchObject({ ok: true, value: { mode: 'browser' } });
    } finally {
      await s.close();
      await late.close();
    }
  });
});

/** GETs a static file, read to its end; resolves with the status once the response closed. */
function getFile(url: string, path: string, headers: Record<string, string> = {}): Promise<number> {
  const port = Number(new URL(url).port);
  return new Promise<number>((resolve, reject) => {
    http
      .get(
        { host: '127.0.0.1', port, path, headers: { host: `127.0.0.1:${port}`, ...headers } },
        (res) => {
          res.resume();
          res.on('close', () => resolve(res.statusCode!));
        },
      )
      .on('error', reject);
  });
}

describe('browser mode server, when the page was served', () => {
  /** A browser mode on the test renderer, counting its `onPageServed` calls. */
  async function countingPageServed(token: string) {
    const served = { calls: 0 };
    const s = await startBrowserMode({
      backend: t.backend,
      rendererDir,
      token,
      onPageServed: () => served.calls++,
    });
    return { s, served };
  }

  it('calls onPageServed once, when the page (its HTML) went out and nothing is being sent', async () => {
    // A browser that kept the page's scripts asks for the page only.
    const { s, served } = await countingPageServed('test-token-789');
    try {
      const get = (path: string) => getFile(s.url, path);
      expect(await get('/')).toBe(200);
      await until('onPageServed called', () => served.calls > 0);
      // Files the page then asks for (a browser that kept none of them) change nothing.
      expect(await get('/assets/app.js')).toBe(200);
      expect(await get('/catalog')).toBe(200);
      expect(served.calls).toBe(1);
    } finally {
      await s.close();
    }
  });

  it('does not call it for a script alone: the page comes first', async () => {
    const { s, served } = await countingPageServed('test-token-788');
    try {
      expect(await getFile(s.url, '/assets/app.js')).toBe(200);
      expect(served.calls).toBe(0);
      expect(await getFile(s.url, '/')).toBe(200);
      await until('onPageServed called', () => served.calls > 0);
    } finally {
      await s.close();
    }
  });
});
