/**
 * One tenant's big orders must not make its list pages megabytes (the fuzzed tenant's
 * `GET /v0/orders?limit=100` was 5.6 MB and slowed the service for everyone): a page ends at
 * the byte budget, with `pagination.limit` saying how many records it holds, and paging by
 * `offset + limit` still visits every order exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/harness';
import { seedScenes, taskingItem } from './fixtures';
import { createOrder, type Json } from './helpers';

const BUDGET = 20_000;
let t: TestApp;
const created: string[] = [];

/** A valid polygon of n positions around (11.35, 44.5). */
function circle(n: number) {
  const pts = Array.from({ length: n }, (_, i) => [
    11.35 + 0.05 * Math.cos((2 * Math.PI * i) / n),
    44.5 + 0.05 * Math.sin((2 * Math.PI * i) / n),
  ]);
  return { type: 'Polygon', coordinates: [[...pts, pts[0]]] };
}

beforeAll(async () => {
  t = await createTestApp({ maxListPageBytes: BUDGET, now: () => Date.UTC(2030, 0, 1) });
  seedScenes(t);
  for (let k = 0; k < 6; k++) {
    const geometry = {
      type: 'FeatureCollection',
      features: [{ type: 'Feature', geometry: circle(300) }],
    };
    const res = await createOrder(t, [taskingItem({ name: `big ${k}`, geometry })]);
    expect(res.statusCode, res.body).toBe(201);
    created.push(res.json().id);
  }
});
afterAll(async () => t.close());

/** Pages a list by `offset += pagination.limit`; the ids seen, and the page sizes. */
async function pageThrough(url: string, key: string): Promise<{ ids: string[]; sizes: number[] }> {
  const ids: string[] = [];
  const sizes: number[] = [];
  let offset = 0;
  for (let pages = 0; pages < 20; pages++) {
    const body = (await t.call({ method: 'GET', url: `${url}&offset=${offset}` })).json();
    const list = body[key] as Json[];
    if (list.length === 0) break;
    ids.push(...list.map((r) => r.id ?? r.aoi_id));
    sizes.push(list.length);
    // A page cut short says so: its limit is what it holds.
    if (offset + list.length < body.pagination.total)
      expect(body.pagination.limit).toBe(list.length);
    offset += body.pagination.limit;
  }
  return { ids, sizes };
}

describe('GET /v0/orders page bytes', () => {
  it('ends a page at the budget and says how many it holds in pagination.limit', async () => {
    const res = await t.call({ method: 'GET', url: '/v0/orders?limit=100' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const one = JSON.stringify(body.orders[0]).length;
    expect(one * 6).toBeGreaterThan(BUDGET); // the six would not fit
    expect(body.orders.length).toBeLessThan(6);
    expect(body.orders.length).toBeGreaterThan(0);
    expect(body.pagination).toEqual({ limit: body.orders.length, offset: 0, total: 6 });
    expect(res.rawPayload.length).toBeLessThan(BUDGET + 200);
  });

  it('paging by offset + limit visits every order once', async () => {
    const seen: string[] = [];
    let offset = 0;
    for (let pages = 0; pages < 10 && offset < 6; pages++) {
      const body = (
        await t.call({ method: 'GET', url: `/v0/orders?limit=100&offset=${offset}` })
      ).json();
      seen.push(...body.orders.map((o: Json) => o.id));
      offset += body.pagination.limit;
    }
    expect([...seen].sort()).toEqual([...created].sort());
  });

  it('order items and AOIs pages end at the budget too, and paging visits each once', async () => {
    const items = await pageThrough('/v0/order-items?limit=100', 'order_items');
    expect(items.ids).toHaveLength(6);
    expect(new Set(items.ids).size).toBe(6);
    expect(items.sizes.length).toBeGreaterThan(1);
    const aoiIds: string[] = [];
    for (let k = 0; k < 4; k++) {
      const res = await t.call({
        method: 'POST',
        url: '/v0/aois',
        payload: {
          name: `big ${k}`,
          description: '',
          satellite_id: 'sat-aurora-1',
          provider: 'p',
          project_id: 'prj-demo-crops',
          geometry: circle(600),
          item_ids: ['scn-wide'],
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      aoiIds.push(res.json().aoi_id);
    }
    const aois = await pageThrough('/v0/aois?limit=100', 'aois');
    expect([...aois.ids].sort()).toEqual([...aoiIds].sort());
    expect(aois.sizes.length).toBeGreaterThan(1);
  });

  it('a page whose first order alone is over the budget still carries that order', async () => {
    const tiny = await createTestApp({ maxListPageBytes: 100, now: () => Date.UTC(2030, 0, 1) });
    try {
      seedScenes(tiny);
      for (let k = 0; k < 2; k++)
        expect((await createOrder(tiny, [taskingItem()])).statusCode).toBe(201);
      const body = (await tiny.call({ method: 'GET', url: '/v0/orders?limit=10' })).json();
      expect(body.orders).toHaveLength(1);
      expect(body.pagination).toEqual({ limit: 1, offset: 0, total: 2 });
    } finally {
      await tiny.close();
    }
  });
});
