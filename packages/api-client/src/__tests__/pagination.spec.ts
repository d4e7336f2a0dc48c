/**
 * Pagination over every shape, served by a recording HTTP server on 127.0.0.1 from an in-memory
 * dataset: offset (lists), skip (satellite search, three `items` structures), catalog search with
 * offset-shaped, skip-shaped or no pagination, archive items, and servers that misbehave.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { wire } from '../../test/fixtures';
import { startHttpServer, type Recorded, type TestHttpServer } from '../../test/http-server';
import { allItems, createEoClient, EoAbortError, type EoClient, type Page } from '../index';

let srv: TestHttpServer;
let client: EoClient;
beforeAll(async () => {
  srv = await startHttpServer();
  client = createEoClient({ baseUrl: srv.url, apiKey: 'eok_pages' });
});
afterAll(async () => srv.close());
beforeEach(() => {
  srv.requests.length = 0;
});

async function collect<T>(pages: AsyncIterable<Page<T>>): Promise<Array<Page<T>>> {
  const out: Array<Page<T>> = [];
  for await (const p of pages) out.push(p);
  return out;
}

/** offset/limit of a GET (query) or POST (body) request. */
function window(r: Recorded, offsetKey = 'offset'): { offset: number; limit: number } {
  const src = (r.method === 'GET' ? r.query : r.body) as Record<string, unknown>;
  return { offset: Number(src[offsetKey] ?? 0), limit: Number(src.limit ?? 10) };
}

describe('offset-based lists', () => {
  const orders = Array.from({ length: 25 }, (_, i) => wire.order(`ord-${i}`));
  beforeAll(() => {
    srv.setHandler((r) => {
      const { offset, limit } = window(r);
      return {
        json: {
          orders: orders.slice(offset, offset + limit),
          pagination: { limit, offset, total: orders.length },
        },
      };
    });
  });

  it('follows offsets to the end, with totals for progress', async () => {
    const pages = await collect(client.pages.orders({}, { pageSize: 10 }));
    expect(pages.map((p) => [p.pageIndex, p.offset, p.items.length, p.total])).toEqual([
      [0, 0, 10, 25],
      [1, 10, 10, 25],
      [2, 20, 5, 25],
    ]);
    expect(srv.requests.map((r) => r.search)).toEqual([
      'limit=10&offset=0',
      'limit=10&offset=10',
      'limit=10&offset=20',
    ]);
  });
  it('stops at total without asking for an empty page', async () => {
    const pages = await collect(client.pages.orders({ offset: 5 }, { pageSize: 10 }));
    expect(pages.map((p) => p.offset)).toEqual([5, 15]);
    expect(srv.requests).toHaveLength(2);
  });
  it('keeps filters, starts at the given offset, uses query.limit as the page size', async () => {
    const items = [];
    for await (const o of allItems(client.pages.orders({ user_id: 'u1', offset: 20, limit: 3 }))) {
      items.push(o.id);
    }
    expect(items).toEqual(['ord-20', 'ord-21', 'ord-22', 'ord-23', 'ord-24']);
    expect(srv.requests[0]!.search).toBe('user_id=u1&offset=20&limit=3');
  });
  it('an empty result is one empty page with total 0', async () => {
    srv.setHandler(() => ({ json: { aois: [], pagination: { limit: 10, offset: 0, total: 0 } } }));
    const pages = await collect(client.pages.aois());
    expect(pages).toEqual([
      {
        items: [],
        total: 0,
        offset: 0,
        pageIndex: 0,
        end: 'empty',
        serverDateMs: expect.any(Number),
      },
    ]);
  });
  it('aoiAssets, orderItems and indices use the same mechanics', async () => {
    srv.setHandler((r) => {
      const { offset, limit } = window(r);
      const all = Array.from({ length: 7 }, (_, i) => `x-${i}`);
      const slice = all.slice(offset, offset + limit);
      const pagination = { limit, offset, total: all.length };
      if (r.path.endsWith('/assets'))
        return { json: { assets: slice.map(wire.asset), pagination } };
      if (r.path === '/v0/order-items')
        return { json: { order_items: slice.map(wire.orderItem), pagination } };
      return { json: { indices: slice.map(wire.index), pagination } };
    });
    const assets = await collect(client.pages.aoiAssets('aoi/1', {}, { pageSize: 3 }));
    expect(assets.flatMap((p) => p.items.map((a) => a.id))).toHaveLength(7);
    expect(srv.requests[0]!.path).toBe('/v0/aois/aoi%2F1/assets');
    const items = await collect(client.pages.orderItems({ type: 'TASKING' }, { pageSize: 4 }));
    expect(items.map((p) => p.items.length)).toEqual([4, 3]);
    const indices = await collect(client.pages.indices({}, { pageSize: 7 }));
    expect(indices).toHaveLength(1);
  });
});

describe('skip-based satellite search', () => {
  const features = Array.from({ length: 12 }, (_, i) => wire.satelliteFeature(`s-${i}`));
  const body = { satellite: { collection_id: 'col-aurora-l2a', satellite_id: 'sat-aurora-1' } };
  const serve = (shape: (slice: unknown[]) => unknown) =>
    srv.setHandler((r) => {
      const { offset: skip, limit } = window(r, 'skip');
      return {
        json: {
          items: shape(features.slice(skip, skip + limit)),
          pagination: { limit, skip, total: features.length },
        },
      };
    });

  it('items as a FeatureCollection', async () => {
    serve((slice) => ({ type: 'FeatureCollection', features: slice }));
    const pages = await collect(client.pages.satelliteImages(body, { pageSize: 5 }));
    expect(pages.map((p) => [p.offset, p.items.length, p.total])).toEqual([
      [0, 5, 12],
      [5, 5, 12],
      [10, 2, 12],
    ]);
    expect(srv.requests.map((r) => (r.body as { skip: number }).skip)).toEqual([0, 5, 10]);
    expect(srv.requests[0]!.body).toEqual({ ...body, skip: 0, limit: 5 });
    expect(pages[2]!.items.map((f) => f.id)).toEqual(['s-10', 's-11']);
  });
  it('items as an array', async () => {
    serve((slice) => slice);
    const ids = [];
    for await (const f of allItems(client.pages.satelliteImages(body, { pageSize: 5 })))
      ids.push(f.id);
    expect(ids).toHaveLength(12);
  });
  it('items as an object of arrays', async () => {
    serve((slice) => ({ 'sat-aurora-1': slice.slice(0, 2), 'sat-aurora-2': slice.slice(2) }));
    const ids = [];
    for await (const f of allItems(client.pages.satelliteImages(body, { pageSize: 5 })))
      ids.push(f.id);
    expect(ids).toEqual(features.map((f) => f.id));
  });
});

describe('catalog search', () => {
  const records = Array.from({ length: 23 }, (_, i) => wire.catalogRecord(i));
  type Shape = 'offset' | 'skip' | 'none';
  const serve = (shape: Shape, opts: { ignoreOffset?: boolean; total?: boolean } = {}) =>
    srv.setHandler((r) => {
      const { limit } = window(r);
      const offset = opts.ignoreOffset ? 0 : window(r).offset;
      const catalogs = records.slice(offset, offset + limit);
      const total = opts.total === false ? {} : { total: records.length };
      const pagination =
        shape === 'offset'
          ? { limit, offset, ...total }
          : shape === 'skip'
            ? { limit, skip: offset, ...total }
            : undefined;
      return { json: pagination ? { catalogs, pagination } : { catalogs } };
    });
  const ids = (pages: Array<Page<{ id: string }>>) =>
    pages.flatMap((p) => p.items.map((c) => c.id));

  it('offset-shaped pagination', async () => {
    serve('offset');
    const pages = await collect(
      client.pages.catalogs({ collections: ['col-aurora-l2a'] }, { pageSize: 10 }),
    );
    expect(pages.map((p) => [p.offset, p.items.length, p.total])).toEqual([
      [0, 10, 23],
      [10, 10, 23],
      [20, 3, 23],
    ]);
    expect(srv.requests[1]!.body).toEqual({
      collections: ['col-aurora-l2a'],
      limit: 10,
      offset: 10,
    });
    expect(ids(pages)).toEqual(records.map((r) => r.id));
  });
  it('skip-shaped pagination', async () => {
    serve('skip');
    const pages = await collect(client.pages.catalogs({}, { pageSize: 10 }));
    expect(ids(pages)).toEqual(records.map((r) => r.id));
    expect(pages[0]!.total).toBe(23);
  });
  // Exact request counts without a total: read-ahead off (it may ask up to its window past the
  // last page; read-ahead.spec.ts covers that).
  it('no pagination object: stops on the short page, total unknown', async () => {
    serve('none');
    const pages = await collect(client.pages.catalogs({}, { pageSize: 10, prefetch: false }));
    expect(pages.map((p) => [p.items.length, p.total])).toEqual([
      [10, undefined],
      [10, undefined],
      [3, undefined],
    ]);
    expect(srv.requests).toHaveLength(3);
  });
  it('no pagination and an exact multiple: one more request, an empty page, then stop', async () => {
    serve('none');
    const pages = await collect(client.pages.catalogs({ limit: 23 }, { prefetch: false }));
    expect(pages.map((p) => p.items.length)).toEqual([23, 0]);
  });
  it('a server that ignores offset: stops when a page repeats, never yields duplicates', async () => {
    serve('offset', { ignoreOffset: true });
    const pages = await collect(client.pages.catalogs({}, { pageSize: 10, prefetch: false }));
    // The repeat is not yielded: the pass ends with an empty page that says why.
    expect(pages.map((p) => [p.offset, p.items.length, p.end])).toEqual([
      [0, 10, undefined],
      [10, 0, 'repeated'],
    ]);
    expect(srv.requests).toHaveLength(2);
    serve('none', { ignoreOffset: true });
    srv.requests.length = 0;
    const again = await collect(client.pages.catalogs({}, { pageSize: 10, prefetch: false }));
    expect(again.map((p) => p.items.length)).toEqual([10, 0]);
    expect(srv.requests).toHaveLength(2);
  });
  it('a pagination object without total: stops on the short page', async () => {
    serve('offset', { total: false });
    const pages = await collect(client.pages.catalogs({}, { pageSize: 20, prefetch: false }));
    expect(pages.map((p) => [p.items.length, p.total])).toEqual([
      [20, undefined],
      [3, undefined],
    ]);
  });
});

describe('archive items (FeatureCollection, no pagination object)', () => {
  it('pages by limit/offset, stops on the short page, uses numberMatched as total', async () => {
    const all = Array.from({ length: 9 }, (_, i) => wire.archiveFeature(`arc-${i}`));
    srv.setHandler((r) => {
      const { offset, limit } = window(r);
      return {
        json: {
          type: 'FeatureCollection',
          features: all.slice(offset, offset + limit),
          links: [],
          numberMatched: all.length,
        },
      };
    });
    const pages = await collect(client.pages.archiveItems('col-aurora-l2a', {}, { pageSize: 4 }));
    expect(pages.map((p) => [p.offset, p.items.length, p.total])).toEqual([
      [0, 4, 9],
      [4, 4, 9],
      [8, 1, 9],
    ]);
    expect(srv.requests[0]!.url).toBe(
      '/v0/archives/collections/col-aurora-l2a/items?limit=4&offset=0',
    );
  });
});

describe('cancellation and read-ahead', () => {
  const serveOrders = (delayMs = 0) =>
    srv.setHandler(async (r) => {
      const { offset } = window(r);
      if (delayMs) await new Promise((res) => setTimeout(res, delayMs));
      return {
        json: {
          orders: [wire.order(`o-${offset}`)],
          pagination: { limit: 1, offset, total: 1000 },
        },
      };
    });
  async function until(cond: () => boolean): Promise<boolean> {
    for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
    return cond();
  }

  it('an aborted signal ends the iteration with EoAbortError', async () => {
    serveOrders();
    const ac = new AbortController();
    const seen: number[] = [];
    let error: unknown;
    try {
      const pages = client.pages.orders({}, { pageSize: 1, signal: ac.signal, prefetch: false });
      for await (const p of pages) {
        seen.push(p.offset);
        if (p.pageIndex === 2) ac.abort();
      }
    } catch (e) {
      error = e;
    }
    expect(seen).toEqual([0, 1, 2]);
    expect(error).toBeInstanceOf(EoAbortError);
    expect(srv.requests).toHaveLength(3);
  });
  it('with prefetch: 1, reads one page ahead while the caller works on the current one', async () => {
    serveOrders();
    for await (const p of client.pages.orders({}, { pageSize: 1, prefetch: 1 })) {
      // The request for page 1 reaches the server while page 0 is still being consumed.
      expect(await until(() => srv.requests.length === 2)).toBe(true);
      expect(p.pageIndex).toBe(0);
      break;
    }
    srv.requests.length = 0;
    for await (const _ of client.pages.orders({}, { pageSize: 1, prefetch: false })) {
      expect(await until(() => srv.requests.length === 2)).toBe(false);
      break;
    }
  });
  it('stopping early aborts the request read ahead, without an unhandled rejection', async () => {
    serveOrders(150);
    const events: string[] = [];
    const c = createEoClient({
      baseUrl: srv.url,
      apiKey: 'eok_pages',
      onResponse: (e) => events.push(e.error ?? String(e.status)),
    });
    for await (const p of c.pages.orders({}, { pageSize: 1, prefetch: 1 })) {
      expect(p.pageIndex).toBe(0);
      // Let the read-ahead request reach the server (it answers after 150 ms), then stop.
      expect(await until(() => srv.requests.length === 2)).toBe(true);
      break;
    }
    expect(await until(() => events.length === 2)).toBe(true);
    expect(events).toEqual(['200', 'abort']);
  });
  it('never reads ahead past the stop rules', async () => {
    const all = Array.from({ length: 6 }, (_, i) => wire.order(`ord-${i}`));
    srv.setHandler((r) => {
      const { offset, limit } = window(r);
      return {
        json: {
          orders: all.slice(offset, offset + limit),
          pagination: { limit, offset, total: 6 },
        },
      };
    });
    for await (const _ of client.pages.orders({}, { pageSize: 3, prefetch: true })) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(srv.requests.map((r) => r.search)).toEqual(['limit=3&offset=0', 'limit=3&offset=3']);
  });
});
