/**
 * Paging against services that vary the way real ones do (test/varying-server.ts on 127.0.0.1):
 * a capped page size with the asked `limit` echoed or none, no `total`, `next` links (STAC or
 * `pagination.next`, same origin or not), a service that never ends, and the real satellite
 * search answer (`items` as a map of id to item).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { wire } from '../../test/fixtures';
import { startHttpServer, type TestHttpServer } from '../../test/http-server';
import { startVaryingServer, type VaryingServer } from '../../test/varying-server';
import { allItems, createEoClient, satelliteItems, type EoClient, type Page } from '../index';

const KEY = 'eok_honest_paging';
const orders = Array.from({ length: 250 }, (_, i) =>
  wire.order(`ord-${String(i).padStart(3, '0')}`),
);
const features = Array.from({ length: 250 }, (_, i) => wire.archiveFeature(`arc-${i}`));
const catalogs = Array.from({ length: 250 }, (_, i) => wire.catalogRecord(i));
const scenes = Array.from({ length: 12 }, (_, i) => ({
  type: 'Feature',
  stac_version: '1.0.0',
  id: `scene-${i}`,
  properties: { datetime: '2024-05-01T10:00:00Z' },
}));

let srv: VaryingServer;
let elsewhere: TestHttpServer;
let client: EoClient;
beforeAll(async () => {
  srv = await startVaryingServer({
    orders: { records: orders },
    archive: { 'col-a': { records: features } },
    catalogs: { records: catalogs },
    satellite: { records: scenes },
  });
  elsewhere = await startHttpServer(() => ({ json: { orders: [] } }));
  client = createEoClient({ baseUrl: srv.url, apiKey: KEY });
});
afterAll(async () => {
  await srv.close();
  await elsewhere.close();
});
afterEach(() => {
  srv.requests.length = 0;
  elsewhere.requests.length = 0;
  srv.vary({
    pageCap: undefined,
    echoLimit: 'asked',
    total: true,
    links: 'none',
    linkOrigin: undefined,
    ignoreOffset: false,
  });
});

async function collect<T>(pages: AsyncIterable<Page<T>>): Promise<Array<Page<T>>> {
  const out: Array<Page<T>> = [];
  for await (const p of pages) out.push(p);
  return out;
}
const ids = (pages: Array<Page<{ id: string }>>) => pages.flatMap((p) => p.items.map((o) => o.id));
const shape = (pages: Array<Page<unknown>>) =>
  pages.map((p) => [p.offset, p.items.length, p.total, p.end]);

describe('a service that caps the page size', () => {
  it('with total, echoing the limit asked: pages on to total, not stopping at a "short" page', async () => {
    srv.vary({ pageCap: 100, echoLimit: 'asked' });
    const pages = await collect(client.pages.orders({}, { pageSize: 1000 }));
    expect(shape(pages)).toEqual([
      [0, 100, 250, undefined],
      [100, 100, 250, undefined],
      [200, 50, 250, 'total'],
    ]);
    expect(ids(pages)).toEqual(orders.map((o) => o.id));
    expect(srv.requests.map((r) => r.search)).toEqual([
      'limit=1000&offset=0',
      'limit=1000&offset=100',
      'limit=1000&offset=200',
    ]);
  });
  it('with total and no limit echoed: the same', async () => {
    srv.vary({ pageCap: 100, echoLimit: 'none' });
    const pages = await collect(client.pages.orders({}, { pageSize: 1000 }));
    expect(ids(pages)).toHaveLength(250);
    expect(pages.at(-1)!.end).toBe('total');
  });
  it('with read-ahead: the same pages, and never a request past total', async () => {
    srv.vary({ pageCap: 100 });
    const pages = await collect(client.pages.orders({}, { pageSize: 1000, prefetch: true }));
    expect(ids(pages)).toHaveLength(250);
    expect(srv.requests).toHaveLength(3);
  });
  it('catalog search (offset in the body): the same rules', async () => {
    srv.vary({ pageCap: 100, echoLimit: 'asked' });
    const pages = await collect(client.pages.catalogs({}, { pageSize: 1000 }));
    expect(ids(pages)).toEqual(catalogs.map((c) => c.id));
    expect(srv.requests.map((r) => (r.body as { offset: number }).offset)).toEqual([0, 100, 200]);
  });
  it('a total sent as a numeric string counts as a total', async () => {
    const capped = await startHttpServer((r) => {
      const offset = Number(r.query.offset);
      return {
        json: {
          orders: orders.slice(offset, offset + 100),
          pagination: { limit: r.query.limit, offset: String(offset), total: '250' },
        },
      };
    });
    try {
      const c = createEoClient({ baseUrl: capped.url, apiKey: KEY });
      const pages = await collect(c.pages.orders({}, { pageSize: 1000 }));
      expect(shape(pages).map(([, n, total, end]) => [n, total, end])).toEqual([
        [100, 250, undefined],
        [100, 250, undefined],
        [50, 250, 'total'],
      ]);
    } finally {
      await capped.close();
    }
  });
  it('without total but echoing the size it served: pages on until a short page', async () => {
    srv.vary({ pageCap: 100, echoLimit: 'served', total: false });
    const pages = await collect(client.pages.orders({}, { pageSize: 1000 }));
    expect(shape(pages)).toEqual([
      [0, 100, undefined, undefined],
      [100, 100, undefined, undefined],
      [200, 50, undefined, 'short'],
    ]);
  });
  it('an empty page ends the pass, whatever total says', async () => {
    srv.vary({ pageCap: 100 });
    // Starting at 200 of 250: the service lists 50 more; an empty page ends it honestly.
    const pages = await collect(client.pages.orders({ offset: 200 }, { pageSize: 1000 }));
    expect(shape(pages)).toEqual([[200, 50, 250, 'total']]);
    srv.requests.length = 0;
    const gone = await collect(client.pages.orders({ offset: 260 }, { pageSize: 10 }));
    expect(shape(gone)).toEqual([[260, 0, 250, 'empty']]);
  });
});

describe('next links', () => {
  it('STAC links on a list without total: followed (same origin), with the key', async () => {
    srv.vary({ pageCap: 100, echoLimit: 'none', total: false, links: 'stac' });
    const pages = await collect(client.pages.orders({ user_id: 'u1' }, { pageSize: 1000 }));
    expect(ids(pages)).toEqual(orders.map((o) => o.id));
    expect(pages.at(-1)!.end).toBe('short');
    // After the first request, the service's own links (its limit and offset) are followed.
    expect(srv.requests.map((r) => r.search)).toEqual([
      'user_id=u1&limit=1000&offset=0',
      'user_id=u1&limit=100&offset=100',
      'user_id=u1&limit=100&offset=200',
    ]);
    expect(srv.requests.every((r) => r.headers.authorization === KEY)).toBe(true);
  });
  it('pagination.next: followed the same way, read ahead too', async () => {
    srv.vary({ pageCap: 100, echoLimit: 'none', total: false, links: 'pagination' });
    const pages = await collect(client.pages.orders({}, { pageSize: 1000, prefetch: true }));
    expect(ids(pages)).toEqual(orders.map((o) => o.id));
    expect(srv.requests.map((r) => r.search)).toEqual([
      'limit=1000&offset=0',
      'limit=100&offset=100',
      'limit=100&offset=200',
    ]);
  });
  it('a link to another origin is never followed (the key stays home); paging goes on by offset', async () => {
    srv.vary({ pageCap: 100, total: false, links: 'stac', linkOrigin: elsewhere.url });
    const pages = await collect(client.pages.orders({}, { pageSize: 1000 }));
    expect(ids(pages)).toEqual(orders.map((o) => o.id));
    expect(elsewhere.requests).toHaveLength(0);
    expect(srv.requests.map((r) => r.search)).toEqual([
      'limit=1000&offset=0',
      'limit=1000&offset=100',
      'limit=1000&offset=200',
    ]);
  });
  it('archive items as the real service lists them (no numberMatched, capped, STAC links)', async () => {
    srv.vary({ pageCap: 100, links: 'stac' });
    const pages = await collect(client.pages.archiveItems('col-a', {}, { pageSize: 1000 }));
    expect(pages.map((p) => [p.offset, p.items.length, p.total, p.end])).toEqual([
      [0, 100, undefined, undefined],
      [100, 100, undefined, undefined],
      [200, 50, undefined, 'short'],
    ]);
    expect(srv.requests[2]!.url).toBe('/v0/archives/collections/col-a/items?limit=100&offset=200');
  });
  it('a next link to the page just read ends the pass as repeated', async () => {
    const self = await startHttpServer((r) => ({
      json: {
        orders: [wire.order('ord-same')],
        pagination: { limit: 1, offset: 0 },
        links: [{ rel: 'next', href: r.url }],
      },
    }));
    try {
      const c = createEoClient({ baseUrl: self.url, apiKey: KEY });
      const pages = await collect(c.pages.orders({}, { pageSize: 1 }));
      expect(shape(pages)).toEqual([
        [0, 1, undefined, undefined],
        [1, 0, undefined, 'repeated'],
      ]);
    } finally {
      await self.close();
    }
  });
});

describe('the page cap', () => {
  it('a service that never ends stops at maxPages, and the last page says so', async () => {
    let n = 0;
    const endless = await startHttpServer(() => ({
      json: { orders: [wire.order(`ord-${n++}`)], pagination: { limit: 1 } },
    }));
    try {
      const c = createEoClient({ baseUrl: endless.url, apiKey: KEY });
      const pages = await collect(c.pages.orders({}, { pageSize: 1, maxPages: 5, prefetch: true }));
      expect(pages.map((p) => p.end)).toEqual([
        undefined,
        undefined,
        undefined,
        undefined,
        'page-cap',
      ]);
      expect(endless.requests).toHaveLength(5);
      await expect(collect(c.pages.orders({}, { maxPages: 0 }))).rejects.toThrow(RangeError);
    } finally {
      await endless.close();
    }
  });
});

describe('satellite search as the real service answers it', () => {
  it('items as a map of item id to STAC Item: every item yielded, paged by skip', async () => {
    const body = { satellite: { collection_id: 'col-a', satellite_id: 'sat-1' } };
    const got: string[] = [];
    for await (const item of allItems(client.pages.satelliteImages(body, { pageSize: 5 })))
      got.push(String(item.id));
    expect(got).toEqual(scenes.map((s) => s.id));
    expect(srv.requests.map((r) => (r.body as { skip: number }).skip)).toEqual([0, 5, 10]);
  });
  it('satelliteItems: a map entry without an id takes its key', () => {
    expect(
      satelliteItems({ 'scene-a': { type: 'Feature', properties: {} }, 'scene-b': scenes[1] }),
    ).toEqual([{ type: 'Feature', properties: {}, id: 'scene-a' }, scenes[1]]);
  });
});
