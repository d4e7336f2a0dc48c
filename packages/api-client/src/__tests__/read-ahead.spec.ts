/**
 * Read-ahead against a recording server on 127.0.0.1 that answers each request after a fixed
 * delay (a high-latency link) and counts the requests it holds at once. Assertions are on that
 * count, on which pages were asked for and on the order pages are handed over, never on time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { wire } from '../../test/fixtures';
import { startHttpServer, type Recorded, type Reply } from '../../test/http-server';
import { READ_AHEAD_MAX } from '../read-ahead';
import {
  createEoClient,
  EoAbortError,
  EoApiError,
  type EoClientOptions,
  type Page,
} from '../index';

const KEY = 'eok_read_ahead';

interface LinkServer {
  readonly url: string;
  readonly requests: Recorded[];
  /** Offsets asked for, in the order the requests arrived. */
  readonly offsets: number[];
  /** Most requests held (not answered yet) at once. */
  readonly maxInFlight: number;
  close(): Promise<void>;
}

const servers: LinkServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** Order ids of one length, so every one-record page has the same size. */
const records = (n: number) =>
  Array.from({ length: n }, (_, i) => wire.order(`ord-${String(i).padStart(4, '0')}`));

/**
 * Orders `GET /v0/orders` answered after `delayMs`; `reply` may replace a page (an error, a
 * page of another size). `total: false` leaves the total out.
 */
async function startLink(
  all: readonly unknown[],
  o: {
    delayMs: number;
    total?: boolean;
    reply?: (offset: number, limit: number) => Reply | undefined;
  },
): Promise<LinkServer> {
  let inFlight = 0;
  let maxInFlight = 0;
  const offsets: number[] = [];
  const srv = await startHttpServer(async (r) => {
    const offset = Number(r.query.offset ?? 0);
    const limit = Number(r.query.limit ?? 10);
    offsets.push(offset);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      const special = o.reply?.(offset, limit);
      if (special?.status !== undefined && special.status >= 400) return special;
      await new Promise((res) => setTimeout(res, o.delayMs));
      if (special) return special;
      const pagination = { limit, offset, ...(o.total === false ? {} : { total: all.length }) };
      return { json: { orders: all.slice(offset, offset + limit), pagination } };
    } finally {
      inFlight--;
    }
  });
  const link: LinkServer = {
    url: srv.url,
    requests: srv.requests,
    offsets,
    get maxInFlight() {
      return maxInFlight;
    },
    close: () => srv.close(),
  };
  servers.push(link);
  return link;
}

const clientOf = (srv: LinkServer, extra: Partial<EoClientOptions> = {}) =>
  createEoClient({ baseUrl: srv.url, apiKey: KEY, retry: { maxAttempts: 1 }, ...extra });

async function collect<T>(pages: AsyncIterable<Page<T>>): Promise<Array<Page<T>>> {
  const out: Array<Page<T>> = [];
  for await (const p of pages) out.push(p);
  return out;
}

/** Polls `cond` for up to 2 s (a bounded wait: false means it never happened). */
async function until(cond: () => boolean): Promise<boolean> {
  for (let i = 0; i < 400 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  return cond();
}

const idsOf = (pages: Array<Page<{ id: string }>>) =>
  pages.flatMap((p) => p.items.map((x) => x.id));

describe('adaptive read-ahead (the default)', () => {
  it('with latency to hide, the window grows past one page and stays within the maximum', async () => {
    const all = records(30);
    const srv = await startLink(all, { delayMs: 150 });
    const pages = await collect(clientOf(srv).pages.orders({}, { pageSize: 1 }));
    // Strictly in order, every record once.
    expect(pages.map((p) => p.offset)).toEqual(all.map((_, i) => i));
    expect(idsOf(pages)).toEqual(all.map((o) => o.id));
    expect(srv.maxInFlight).toBeGreaterThan(1);
    expect(srv.maxInFlight).toBeLessThanOrEqual(READ_AHEAD_MAX);
    // Never a page at or past the known total, never a page twice.
    expect([...srv.offsets].sort((a, b) => a - b)).toEqual(all.map((_, i) => i));
  });

  it('with nothing to hide (a consumer far slower than the service), at most one page ahead', async () => {
    const all = records(6);
    const srv = await startLink(all, { delayMs: 0 });
    const seen: number[] = [];
    for await (const p of clientOf(srv).pages.orders({}, { pageSize: 1 })) {
      seen.push(p.offset);
      // The caller's own work on each page (say, writing it to disk).
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen).toEqual([0, 1, 2, 3, 4, 5]);
    expect(srv.maxInFlight).toBeLessThanOrEqual(1);
  });

  it('prefetch: true is the adaptive default', async () => {
    const all = records(12);
    const srv = await startLink(all, { delayMs: 150 });
    const pages = await collect(clientOf(srv).pages.orders({}, { pageSize: 1, prefetch: true }));
    expect(idsOf(pages)).toEqual(all.map((o) => o.id));
    expect(srv.maxInFlight).toBeGreaterThan(1);
  });
});

describe('fixed read-ahead', () => {
  it('prefetch: 3 keeps exactly three pages in flight on a slow link', async () => {
    const all = records(12);
    const srv = await startLink(all, { delayMs: 100 });
    const pages = await collect(clientOf(srv).pages.orders({}, { pageSize: 1, prefetch: 3 }));
    expect(idsOf(pages)).toEqual(all.map((o) => o.id));
    expect(srv.maxInFlight).toBe(3);
    expect(srv.offsets).toHaveLength(12);
  });

  it('prefetch: false asks for each page only when the caller does', async () => {
    const all = records(5);
    const srv = await startLink(all, { delayMs: 20 });
    const pages = await collect(clientOf(srv).pages.orders({}, { pageSize: 1, prefetch: false }));
    expect(pages).toHaveLength(5);
    expect(srv.maxInFlight).toBe(1);
  });

  it('refuses a depth that is not a whole number >= 0', async () => {
    const srv = await startLink(records(1), { delayMs: 0 });
    const client = clientOf(srv);
    await expect(collect(client.pages.orders({}, { prefetch: -1 }))).rejects.toThrow(RangeError);
    await expect(collect(client.pages.orders({}, { prefetch: 1.5 }))).rejects.toThrow(RangeError);
    expect(srv.requests).toHaveLength(0);
  });

  it('without a total, asks no further past the end than the window', async () => {
    const all = records(10);
    const srv = await startLink(all, { delayMs: 50, total: false });
    const pages = await collect(clientOf(srv).pages.orders({}, { pageSize: 1, prefetch: 3 }));
    expect(pages.map((p) => p.items.length)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0]);
    expect(pages.at(-1)!.end).toBe('empty');
    // Offset 10 is the empty page that ends it; at most two more (the window) were asked for.
    expect(Math.max(...srv.offsets)).toBeLessThanOrEqual(12);
    expect(srv.maxInFlight).toBeLessThanOrEqual(3);
  });

  it('pages held ahead are bounded by readAheadBytes', async () => {
    const all = records(10);
    const pageChars = JSON.stringify({
      orders: all.slice(0, 1),
      pagination: { limit: 1, offset: 0, total: 10 },
    }).length;
    const srv = await startLink(all, { delayMs: 100 });
    const pages = await collect(
      clientOf(srv).pages.orders(
        {},
        { pageSize: 1, prefetch: 6, readAheadBytes: Math.floor(pageChars * 2.5) },
      ),
    );
    expect(idsOf(pages)).toEqual(all.map((o) => o.id));
    expect(srv.maxInFlight).toBe(2);
  });
});

describe('stopping and failing mid-window', () => {
  it('stopping early aborts every request in flight', async () => {
    const srv = await startLink(records(50), { delayMs: 300 });
    const events: string[] = [];
    const client = clientOf(srv, { onResponse: (e) => events.push(e.error ?? String(e.status)) });
    for await (const p of client.pages.orders({}, { pageSize: 1, prefetch: 4 })) {
      expect(p.pageIndex).toBe(0);
      expect(await until(() => srv.requests.length === 5)).toBe(true);
      break;
    }
    expect(await until(() => events.length === 5)).toBe(true);
    expect(events).toEqual(['200', 'abort', 'abort', 'abort', 'abort']);
    expect(client.inFlight).toBe(0);
  });

  it("the caller's signal aborts every request in flight and ends with EoAbortError", async () => {
    const srv = await startLink(records(50), { delayMs: 300 });
    const events: string[] = [];
    const client = clientOf(srv, { onResponse: (e) => events.push(e.error ?? String(e.status)) });
    const ac = new AbortController();
    const seen: number[] = [];
    let error: unknown;
    try {
      for await (const p of client.pages.orders(
        {},
        { pageSize: 1, prefetch: 4, signal: ac.signal },
      )) {
        seen.push(p.offset);
        expect(await until(() => srv.requests.length === 5)).toBe(true);
        ac.abort();
      }
    } catch (e) {
      error = e;
    }
    expect(seen).toEqual([0]);
    expect(error).toBeInstanceOf(EoAbortError);
    expect(await until(() => events.length === 5)).toBe(true);
    expect(events.filter((e) => e === 'abort')).toHaveLength(4);
  });

  it('an error on a page read ahead surfaces at that page; nothing after it is handed over', async () => {
    const all = records(20);
    const failure: Reply = {
      status: 400,
      json: { error: { code: 'bad_request', message: 'offset 3 is cursed', details: null } },
    };
    // The failing page answers at once, the others after 100 ms: the error is in before the
    // pages ahead of it, and must still wait its turn.
    const srv = await startLink(all, {
      delayMs: 100,
      reply: (offset) => (offset === 3 ? failure : undefined),
    });
    const seen: number[] = [];
    let error: unknown;
    try {
      for await (const p of clientOf(srv).pages.orders({}, { pageSize: 1, prefetch: 5 }))
        seen.push(p.offset);
    } catch (e) {
      error = e;
    }
    expect(seen).toEqual([0, 1, 2]);
    expect(error).toBeInstanceOf(EoApiError);
    expect((error as EoApiError).status).toBe(400);
    // Pages past the failing one were asked for (read ahead) and never handed over.
    expect(srv.offsets.some((o) => o > 3)).toBe(true);
  });
});

describe('pages whose size changes', () => {
  it('a predicted offset that does not hold is asked again: no record skipped or repeated', async () => {
    const all = records(40);
    // The service serves 5, 5, 3, 5, 5, 3, ... records per page (a cap that varies).
    const served = (offset: number) => ((Math.floor(offset / 5) + 1) % 3 === 0 ? 3 : 5);
    const srv = await startLink(all, {
      delayMs: 60,
      reply: (offset, limit) => {
        const n = Math.min(limit, served(offset));
        const pagination = { offset, total: all.length };
        return { json: { orders: all.slice(offset, offset + n), pagination } };
      },
    });
    const pages = await collect(clientOf(srv).pages.orders({}, { pageSize: 5, prefetch: 4 }));
    expect(idsOf(pages)).toEqual(all.map((o) => o.id));
    // Offsets handed over are contiguous: each page starts where the one before ended.
    for (let i = 1; i < pages.length; i++)
      expect(pages[i]!.offset).toBe(pages[i - 1]!.offset + pages[i - 1]!.items.length);
    // Some predictions were wrong (asked for and dropped).
    expect(srv.offsets.length).toBeGreaterThan(pages.length);
  });

  it('a service paging by next links: one request at a time, the next once its link is known', async () => {
    const all = records(8);
    const srv = await startLink(all, {
      delayMs: 60,
      total: false,
      reply: (offset, limit) => {
        const next =
          offset + limit < all.length
            ? `/v0/orders?limit=${limit}&offset=${offset + limit}`
            : undefined;
        return {
          json: {
            orders: all.slice(offset, offset + limit),
            pagination: { limit, offset, ...(next ? { next } : {}) },
          },
        };
      },
    });
    const pages = await collect(clientOf(srv).pages.orders({}, { pageSize: 2, prefetch: 4 }));
    expect(idsOf(pages)).toEqual(all.map((o) => o.id));
    expect(srv.offsets).toEqual([0, 2, 4, 6, 8]);
    expect(srv.maxInFlight).toBe(1);
  });
});
