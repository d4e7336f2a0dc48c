/**
 * `ordersCacheBytes: 0` (the orders-list benchmark's uncached run): nothing is kept, every
 * `GET /v0/orders` page is read and assembled, and the pages are the same bytes as with the
 * cache, changes included. Each page is joined into a Buffer lent for its one response
 * (http/body-pool.ts): on a real listener, many pages at once, compressed or not, each arrive
 * whole and as the page they are.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/harness';
import { seedScenes, taskingItem } from './fixtures';
import { createOrder } from './helpers';

let cached: TestApp;
let uncached: TestApp;
const now = () => Date.UTC(2030, 0, 1);

beforeAll(async () => {
  cached = await createTestApp({ now });
  uncached = await createTestApp({ now, ordersCacheBytes: 0 });
  for (const t of [cached, uncached]) seedScenes(t);
});
afterAll(async () => {
  await cached.close();
  await uncached.close();
});

const list = async (t: TestApp) =>
  (await t.call({ method: 'GET', url: '/v0/orders?limit=100' })).json() as {
    orders: Array<{ name?: string; order_items: Array<{ name: string }> }>;
    pagination: { total: number };
  };

describe('GET /v0/orders without the page cache', () => {
  it('answers the same pages as with it, and sees every change', async () => {
    for (const t of [cached, uncached]) {
      expect((await createOrder(t, [taskingItem({ name: 'first' })])).statusCode).toBe(201);
    }
    expect((await list(uncached)).pagination.total).toBe(1);
    for (const t of [cached, uncached]) {
      expect((await createOrder(t, [taskingItem({ name: 'second' })])).statusCode).toBe(201);
    }
    const a = await list(cached);
    const b = await list(uncached);
    expect(b.pagination.total).toBe(2);
    const names = (p: typeof a) => p.orders.map((o) => o.order_items[0]!.name).sort();
    expect(names(b)).toEqual(['first', 'second']);
    expect(names(b)).toEqual(names(a));
  });
});

describe('GET /v0/orders without the page cache, on a real listener', () => {
  it('answers many pages at once, each whole and its own, identity and gzip alike', async () => {
    for (let k = 0; k < 24; k++) {
      const name = `Concurrent ${k} ${'x'.repeat(3 * k)}`; // pages of different sizes
      expect((await createOrder(uncached, [taskingItem({ name })])).statusCode).toBe(201);
    }
    const urls = Array.from(
      { length: 12 },
      (_, i) => `/v0/orders?limit=${2 + (i % 4)}&offset=${i}`,
    );
    const expected = new Map<string, Buffer>();
    for (const url of urls)
      expected.set(url, (await uncached.call({ method: 'GET', url })).rawPayload);

    await uncached.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = uncached.app.server.address() as AddressInfo;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    const get = (url: string, gzip: boolean) =>
      new Promise<{ url: string; body: Buffer }>((resolve, reject) => {
        const headers = {
          authorization: uncached.key,
          ...(gzip ? { 'accept-encoding': 'gzip' } : {}),
        };
        http
          .get({ host: '127.0.0.1', port, path: url, agent, headers }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              const raw = Buffer.concat(chunks);
              const coding = res.headers['content-encoding'];
              expect(coding).toBe(gzip ? 'gzip' : undefined);
              resolve({ url, body: gzip ? zlib.gunzipSync(raw) : raw });
            });
            res.on('error', reject);
          })
          .on('error', reject);
      });
    try {
      // 96 requests, 8 at a time on the wire: compressions read their lent bodies in the thread
      // pool while other responses take Buffers from the same pool.
      const answers = await Promise.all(
        Array.from({ length: 96 }, (_, i) => get(urls[i % urls.length]!, i % 2 === 0)),
      );
      for (const { url, body } of answers) expect(body.equals(expected.get(url)!), url).toBe(true);
    } finally {
      agent.destroy();
    }
  });
});
