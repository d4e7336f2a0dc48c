import http from 'node:http';
import zlib from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createOrder, createOrdersApp } from '../../orders/__tests__/helpers';
import { taskingItem } from '../../orders/__tests__/fixtures';
import { startServer, type RunningServer } from '../../server';
import { createTestApp, type TestApp } from '../../testing/harness';
import { MIN_BYTES, negotiateCoding } from '../compression';

describe('negotiateCoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate', 'gzip'], // what Node 20's fetch sends by default
    ['br, gzip, deflate', 'br'],
    ['gzip, br', 'br'], // equal q: our preference (smaller)
    ['gzip, br;q=0.5', 'gzip'],
    ['br;q=0.8, gzip;q=0.8', 'br'],
    ['BR;Q=1', 'br'],
    ['x-gzip', 'gzip'],
    ['deflate', 'identity'], // not offered
    ['br;q=0', 'identity'],
    ['gzip;q=0, br;q=0', 'identity'],
    ['*', 'br'],
    ['*;q=0', 'identity'],
    ['*;q=0.5, gzip', 'gzip'],
    ['gzip;q=0, *', 'br'],
    ['identity', 'identity'],
    ['identity, gzip;q=0.5', 'identity'],
    ['identity;q=0.5, gzip;q=0.5', 'gzip'],
    ['identity;q=0, gzip', 'gzip'],
    ['gzip;q=abc', 'identity'], // unreadable weight: the entry is ignored
    ['gzip;q=2', 'identity'],
    ['  gzip ; q=0.3 ,  ', 'gzip'],
  ])('%j -> %s', (header, coding) => {
    expect(negotiateCoding(header)).toBe(coding);
  });
});

/** The decoded body of a response, by its Content-Encoding. */
function decoded(res: { headers: Record<string, unknown>; rawPayload: Buffer }): Buffer {
  const coding = res.headers['content-encoding'];
  if (coding === 'br') return zlib.brotliDecompressSync(res.rawPayload);
  if (coding === 'gzip') return zlib.gunzipSync(res.rawPayload);
  expect(coding).toBeUndefined();
  return res.rawPayload;
}

describe('compressed responses (app.inject)', () => {
  let t: TestApp;
  const search = (acceptEncoding?: string, limit = 100) =>
    t.call({
      method: 'POST',
      url: '/v0/catalogs/search',
      payload: { limit },
      headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });
  let plain: LightMyRequestResponse;

  beforeAll(async () => {
    t = await createOrdersApp();
    for (let i = 0; i < 12; i++) {
      expect((await createOrder(t, [taskingItem({ name: `Field ${i}` })])).statusCode).toBe(201);
    }
    plain = await search();
    expect(plain.statusCode).toBe(200);
    expect(plain.rawPayload.length).toBeGreaterThan(20 * MIN_BYTES);
  });
  afterAll(async () => t.close());
  afterEach(() => vi.restoreAllMocks());

  it.each([
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0.1, gzip', 'gzip'],
  ])('answers %j with %s, a smaller body that decodes to the same JSON', async (accept, coding) => {
    const res = await search(accept);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(coding);
    expect(res.headers['vary']).toBe('Accept-Encoding');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    expect(decoded(res).equals(plain.rawPayload)).toBe(true);
  });

  it('sends identity without Accept-Encoding, for identity, and when every coding has q=0', async () => {
    for (const accept of [undefined, 'identity', 'br;q=0, gzip;q=0', '*;q=0', 'deflate']) {
      const res = await search(accept);
      expect(res.headers['content-encoding'], String(accept)).toBeUndefined();
      expect(res.rawPayload.equals(plain.rawPayload)).toBe(true);
      // The body could have been compressed: caches must key it by Accept-Encoding.
      expect(res.headers['vary']).toBe('Accept-Encoding');
    }
  });

  it('leaves bodies under the threshold alone', async () => {
    const health = await t.call({
      method: 'GET',
      url: '/healthz',
      headers: { 'accept-encoding': 'br' },
    });
    expect(health.rawPayload.length).toBeLessThan(MIN_BYTES);
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.headers['vary']).toBeUndefined();
    expect(health.json()).toEqual({ ok: true });
  });

  it('compresses errors above the threshold and leaves small ones alone', async () => {
    const small = await t.call({
      method: 'GET',
      url: '/v0/nope',
      headers: { 'accept-encoding': 'br' },
    });
    expect(small.statusCode).toBe(404);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json().error.code).toBe('not_found');

    // Many bad fields: a long details list.
    const payload = { order_items: Array.from({ length: 40 }, () => ({ name: 1 })) };
    const big = await t.call({
      method: 'POST',
      url: '/v0/orders',
      payload,
      headers: { 'accept-encoding': 'gzip' },
    });
    const same = await t.call({ method: 'POST', url: '/v0/orders', payload });
    expect(big.statusCode).toBe(400);
    expect(same.rawPayload.length).toBeGreaterThan(MIN_BYTES);
    expect(big.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decoded(big).toString())).toEqual(same.json());
  });

  it('HEAD gets the headers GET would, with no body and nothing compressed', async () => {
    const url = '/v0/orders?limit=50';
    const get = await t.call({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
    const head = await t.call({ method: 'HEAD', url, headers: { 'accept-encoding': 'br' } });
    expect(get.headers['content-encoding']).toBe('br');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['vary']).toBe('Accept-Encoding');
    expect(head.rawPayload.length).toBe(0);
  });

  it('compresses an unchanged cached orders page once per coding, and again once it changed', async () => {
    const brotli = vi.spyOn(zlib, 'brotliCompress');
    const gzip = vi.spyOn(zlib, 'gzip');
    const url = '/v0/orders?limit=100&offset=0';
    const get = (accept: string) =>
      t.call({ method: 'GET', url, headers: { 'accept-encoding': accept } });
    const first = await get('br');
    const second = await get('br, gzip');
    const third = await get('gzip');
    const fourth = await get('gzip');
    expect(brotli).toHaveBeenCalledTimes(1);
    expect(gzip).toHaveBeenCalledTimes(1);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(fourth.rawPayload.equals(third.rawPayload)).toBe(true);
    // Stored whole: sent with its length, not streamed.
    expect(Number(first.headers['content-length'])).toBe(first.rawPayload.length);
    const page = JSON.parse(decoded(first).toString());
    expect(JSON.parse(decoded(third).toString())).toEqual(page);
    expect(page.orders).toHaveLength(12);

    expect((await createOrder(t, [taskingItem({ name: 'One more' })])).statusCode).toBe(201);
    const changed = await get('br');
    expect(brotli).toHaveBeenCalledTimes(2);
    expect(JSON.parse(decoded(changed).toString()).orders).toHaveLength(13);
  });

  it('never compresses a body that already has a Content-Encoding, is not text or is under the threshold', async () => {
    const gz = zlib.gzipSync(Buffer.from(JSON.stringify({ pad: 'x'.repeat(4 * MIN_BYTES) })));
    const png = Buffer.alloc(4 * MIN_BYTES, 7);
    // Routes are added before the app's first request makes it ready: a fresh app.
    const own = await createTestApp();
    try {
      own.app.get('/test/pre-gzipped', async (_req, reply) =>
        reply.header('content-encoding', 'gzip').type('application/json').send(gz),
      );
      own.app.get('/test/png', async (_req, reply) => reply.type('image/png').send(png));
      own.app.get('/test/etag', async (_req, reply) =>
        reply
          .header('etag', '"v1"')
          .type('application/json')
          .send(`"${'x'.repeat(MIN_BYTES)}"`),
      );
      own.app.get('/test/no-transform', async (_req, reply) =>
        reply
          .header('cache-control', 'no-transform')
          .type('application/json')
          .send(`"${'x'.repeat(MIN_BYTES)}"`),
      );
      // A JSON string body of exactly `n` bytes.
      own.app.get<{ Params: { n: string } }>('/test/sized/:n', async (req, reply) =>
        reply.type('application/json').send(`"${'x'.repeat(Number(req.params.n) - 2)}"`),
      );
      const br = { 'accept-encoding': 'br' };
      const pre = await own.call({ method: 'GET', url: '/test/pre-gzipped', headers: br });
      expect(pre.headers['content-encoding']).toBe('gzip');
      expect(pre.rawPayload.equals(gz)).toBe(true);
      const image = await own.call({ method: 'GET', url: '/test/png', headers: br });
      expect(image.headers['content-encoding']).toBeUndefined();
      expect(image.rawPayload.equals(png)).toBe(true);
      // A strong validator names exact bytes: weak once compressed, kept as is otherwise.
      const tagged = await own.call({ method: 'GET', url: '/test/etag', headers: br });
      expect(tagged.headers['content-encoding']).toBe('br');
      expect(tagged.headers.etag).toBe('W/"v1"');
      expect((await own.call({ method: 'GET', url: '/test/etag' })).headers.etag).toBe('"v1"');
      const kept = await own.call({ method: 'GET', url: '/test/no-transform', headers: br });
      expect(kept.headers['content-encoding']).toBeUndefined();
      for (const [n, coding] of [
        [MIN_BYTES - 1, undefined],
        [MIN_BYTES, 'br'],
      ] as const) {
        const sized = await own.call({ method: 'GET', url: `/test/sized/${n}`, headers: br });
        expect(sized.headers['content-encoding'], `${n} bytes`).toBe(coding);
        expect(decoded(sized).length).toBe(n);
      }
    } finally {
      await own.close();
    }
  });
});

describe('compressed responses on a real listener', () => {
  let server: RunningServer;
  let dataDir: string;

  beforeAll(async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-compress-'));
    server = await startServer({ dataDir, logLevel: false, workerTickMs: 0 });
  });
  afterAll(async () => {
    await server.close();
    (await import('node:fs')).rmSync(dataDir, { recursive: true, force: true });
  });

  /** A GET with raw node:http: the bytes as they came off the socket, not decoded. */
  function rawGet(
    path: string,
    headers: Record<string, string>,
  ): Promise<{ headers: http.IncomingHttpHeaders; rawPayload: Buffer }> {
    return new Promise((resolve, reject) => {
      http
        .get(server.url + path, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ headers: res.headers, rawPayload: Buffer.concat(chunks) }));
          res.on('error', reject);
        })
        .on('error', reject);
    });
  }

  it('streams a compressed file (Swagger UI) chunked, decoding to the identity bytes', async () => {
    const file = '/docs/static/swagger-ui-bundle.js';
    const plain = await rawGet(file, {});
    expect(plain.rawPayload.length).toBeGreaterThan(100_000);
    for (const coding of ['br', 'gzip']) {
      const res = await rawGet(file, { 'accept-encoding': coding });
      expect(res.headers['content-encoding']).toBe(coding);
      expect(res.headers['transfer-encoding']).toBe('chunked');
      expect(res.headers['content-length']).toBeUndefined();
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
      expect(decoded(res as never).equals(plain.rawPayload)).toBe(true);
    }
  });

  it('never encodes a range', async () => {
    const file = '/docs/static/swagger-ui-bundle.js';
    const range = await rawGet(file, { 'accept-encoding': 'br', range: 'bytes=0-4095' });
    expect(range.headers['content-range']).toMatch(/^bytes 0-4095\//);
    expect(range.headers['content-encoding']).toBeUndefined();
    expect(range.rawPayload.length).toBe(4096);
  });

  it('global fetch asks for gzip by itself and reads the compressed OpenAPI document', async () => {
    const raw = await rawGet('/v0/openapi.json', { 'accept-encoding': 'gzip, deflate' });
    expect(raw.headers['content-encoding']).toBe('gzip');
    const res = await fetch(server.url + '/v0/openapi.json');
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(await res.json()).toEqual(JSON.parse(decoded(raw as never).toString()));
  });
});
