/**
 * `ordersCacheBytes: 0` (the orders-list benchmark's uncached run): nothing is kept, every
 * `GET /v0/orders` page is read and assembled, and the pages are the same bytes as with the
 * cache, changes included.
 */
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
