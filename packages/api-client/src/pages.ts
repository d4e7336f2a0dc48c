/**
 * Pagination as async iterators of pages, over the shapes services use: offset-based
 * (`limit, offset, total`), skip-based (`limit, skip, total`), none at all (archive items are a
 * FeatureCollection), and `next` links (STAC `links` or `pagination.next`).
 *
 * Stop rules, read from each page as received (`endOf`), honest with services that cap the page
 * size and echo the `limit` asked for (or none): with a known `total` a pass goes on until
 * `offset + n >= total` or a page is empty, however short a page is; a `next` link says there is
 * more; only without either is a page shorter than the page size the last one. A page that starts
 * with the same record as the page before it ends the pass (a service ignoring the offset cannot
 * loop it forever; that page is not yielded), and so does the page cap (`maxPages`). The last
 * page of a pass says why it ended (`end`), so a consumer can tell a complete pass from one cut
 * short (page cap, repeated page, or fewer records than `total`).
 *
 * Read-ahead (`prefetch: true`, off by default): as soon as a page's body has arrived, and before
 * it is validated and handed over, the next page is requested, so validation and the caller's own
 * work overlap the network wait (on a 500 ms satellite link, paging no longer pays one round trip
 * per page). Off by default because with no latency to hide (the embedded local service) it only
 * costs: two pages alive at once meant ~10% more CPU in bench/paging.ts. The stop rules are
 * applied to the undecoded body first, so read-ahead never asks for a page the rules would not;
 * when the caller stops early, the one request in flight is aborted.
 */
import type { EndpointId } from '@eo/domain';
import { nextLinkOf, sameEndpointLink } from './links';
import type { CallOptions } from './options';
import type { RequestInput } from './request';
import type { BodyInput, QueryInput, ResponseOf } from './types';

export interface Page<T> {
  readonly items: T[];
  /** Total number of records across all pages, when the service says (for progress bars). */
  readonly total: number | undefined;
  /** Offset (or skip) of this page's first item. */
  readonly offset: number;
  /** 0 for the first page. */
  readonly pageIndex: number;
  /**
   * Set on the last page of a pass: why the pass ended after it (undefined while more follow).
   * `total`, `empty`, `short`: the service says the list ends here. `repeated`: the service
   * answered the same page again (this last page is empty). `page-cap`: `maxPages` reached with
   * more to read. A pass the caller stops (break, abort) has no last page.
   */
  readonly end?: PassEnd | undefined;
}

export type PassEnd = 'total' | 'empty' | 'short' | 'repeated' | 'page-cap';

export interface PageOptions {
  /** Records per request. Default: the query's `limit`, else 100. */
  readonly pageSize?: number | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Per-attempt timeout of each page request. */
  readonly timeoutMs?: number | undefined;
  /** Request the next page while the current one is validated and consumed (high-latency links). Default false. */
  readonly prefetch?: boolean | undefined;
  /** Most pages per pass, so a broken service cannot page forever (the last says `page-cap`). Default 10 000. */
  readonly maxPages?: number | undefined;
}

/** A response whose body has arrived but is not decoded (validated) yet. */
export interface Sent<Id extends EndpointId> {
  readonly json: unknown;
  /** Path and query the request was sent to (relative to the base URL). */
  readonly path: string;
  /** Validates against the domain schema (reporting drift); throws EoResponseError if unusable. */
  decode(): ResponseOf<Id>;
}

export type Send = <Id extends EndpointId>(
  id: Id,
  input: RequestInput,
  options?: CallOptions,
) => Promise<Sent<Id>>;

/** One page as received: what the stop rules need, read from the undecoded body. */
interface RawPage<T> {
  /** Records on the page (0 when the list is missing: decode() then throws). */
  readonly n: number;
  readonly total: number | undefined;
  /** The page size the service says it used, when it says. */
  readonly limit: number | undefined;
  /** Identity of the first record, for the repeated-page rule. */
  readonly first: string | undefined;
  /** The service gave a `next` link (wherever it points). */
  readonly linked: boolean;
  /** That link, when it can be followed (same endpoint, same origin): path and query. */
  readonly link: string | undefined;
  decode(): T[];
}

/** Where the next page is: an offset, or the service's own link to it. */
interface Cursor {
  readonly offset: number;
  readonly link: string | undefined;
}

const DEFAULT_PAGE_SIZE = 100;
const DEFAULT_MAX_PAGES = 10_000;

/** A count as services send it: a number, or a numeric string (`"250"`; unambiguous). */
function num(v: unknown): number | undefined {
  if (typeof v === 'string' && /^\s*\d+\s*$/.test(v)) return Number(v);
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Identity of a record for the repeated-page check: its id, else its JSON. */
function identity(item: unknown): string {
  if (isRecord(item)) {
    for (const k of ['id', 'aoi_id', 'delivery_id'] as const) {
      const v = item[k];
      if (typeof v === 'string' || typeof v === 'number') return `${k}:${v}`;
    }
  }
  return `json:${JSON.stringify(item)}`;
}

interface RawPageInit<T> {
  readonly sent: Sent<EndpointId>;
  readonly items: unknown;
  readonly total: number | undefined;
  readonly limit: number | undefined;
  readonly decode: () => T[];
  /** Follow GET `next` links (list reads); searches are POSTs and page by offset/skip only. */
  readonly follow: boolean;
  /** Where a nested FeatureCollection may carry the links (satellite search `items`). */
  readonly nested?: string;
}

function rawPage<T>(baseUrl: string, p: RawPageInit<T>): RawPage<T> {
  const list = Array.isArray(p.items) ? p.items : [];
  const next = nextLinkOf(p.sent.json, p.nested);
  return {
    n: list.length,
    total: p.total,
    limit: p.limit,
    first: list.length > 0 ? identity(list[0]) : undefined,
    linked: next !== undefined,
    link: next && p.follow ? sameEndpointLink(next, baseUrl, p.sent.path) : undefined,
    decode: p.decode,
  };
}

/** Why the pass ends after this page, by what the service said; undefined when more follow. */
function endOf(page: RawPage<unknown>, offset: number, pageSize: number): PassEnd | undefined {
  if (page.n === 0) return 'empty';
  // A known total decides alone: a capped service's short pages are not the end.
  if (page.total !== undefined) return offset + page.n >= page.total ? 'total' : undefined;
  if (page.linked) return undefined;
  return page.n < (page.limit ?? pageSize) ? 'short' : undefined;
}

async function* paginate<T>(
  start: number,
  pageSize: number,
  o: PageOptions,
  fetchPage: (at: Cursor, limit: number, signal: AbortSignal) => Promise<RawPage<T>>,
): AsyncGenerator<Page<T>, void, undefined> {
  const maxPages = o.maxPages ?? DEFAULT_MAX_PAGES;
  if (!Number.isInteger(maxPages) || maxPages < 1)
    throw new RangeError('maxPages must be an integer >= 1');
  // Our own controller, so a read-ahead request can be cancelled when the caller stops early.
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  if (o.signal?.aborted) controller.abort();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  const request = (at: Cursor) => {
    const p = fetchPage(at, pageSize, controller.signal);
    // Awaited later (or never, if the caller stops): no unhandled rejection meanwhile.
    p.catch(() => undefined);
    return p;
  };
  try {
    let at: Cursor = { offset: start, link: undefined };
    let previousFirst: string | undefined;
    let pending = request(at);
    for (let pageIndex = 0; ; pageIndex++) {
      const page = await pending;
      const { offset } = at;
      if (pageIndex > 0 && page.first !== undefined && page.first === previousFirst) {
        yield { items: [], total: page.total, offset, pageIndex, end: 'repeated' };
        return;
      }
      const end =
        endOf(page, offset, pageSize) ?? (pageIndex + 1 >= maxPages ? 'page-cap' : undefined);
      const next: Cursor = { offset: offset + page.n, link: page.link };
      const ahead = end === undefined && o.prefetch === true ? request(next) : undefined;
      yield { items: page.decode(), total: page.total, offset, pageIndex, end };
      if (end !== undefined) return;
      at = next;
      previousFirst = page.first;
      pending = ahead ?? request(at);
    }
  } finally {
    o.signal?.removeEventListener('abort', onAbort);
    controller.abort();
  }
}

/** Flattens pages into records: `for await (const order of allItems(client.pages.orders()))`. */
export async function* allItems<T>(
  pages: AsyncIterable<Page<T>>,
): AsyncGenerator<T, void, undefined> {
  for await (const page of pages) yield* page.items;
}

/**
 * Records of a satellite search `items` value: a map of item id to STAC Item (the real
 * service; an item without an `id` gets its key), a FeatureCollection (`features`), an array,
 * or an object of arrays (concatenated in key order).
 */
export function satelliteItems(items: unknown): Array<Record<string, unknown>> {
  if (Array.isArray(items)) return items as Array<Record<string, unknown>>;
  if (!isRecord(items)) return [];
  if (Array.isArray(items.features)) return items.features as Array<Record<string, unknown>>;
  const out: Array<Record<string, unknown>> = [];
  for (const [key, v] of Object.entries(items)) {
    if (Array.isArray(v)) out.push(...(v as Array<Record<string, unknown>>));
    else if (isRecord(v)) out.push(v.id === undefined || v.id === null ? { ...v, id: key } : v);
  }
  return out;
}

type Item<Id extends EndpointId, K extends keyof ResponseOf<Id>> =
  ResponseOf<Id>[K] extends ReadonlyArray<infer T> ? T : never;

function callOpts(o: PageOptions, signal: AbortSignal): CallOptions {
  return { signal, timeoutMs: o.timeoutMs };
}

function sizeOf(o: PageOptions, limit: unknown): number {
  const size = o.pageSize ?? num(limit) ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(size) || size < 1) throw new RangeError('pageSize must be an integer >= 1');
  return size;
}

function paginationOf(json: unknown): Record<string, unknown> {
  return isRecord(json) && isRecord(json.pagination) ? json.pagination : {};
}

export function makePagers(send: Send, baseUrl: string) {
  /** A GET list with offset pagination: `{ <key>: [...], pagination: { limit, offset, total } }`. */
  function offsetList<Id extends EndpointId, K extends string & keyof ResponseOf<Id>>(
    id: Id,
    key: K,
    params: Record<string, string> | undefined,
    query: { limit?: unknown; offset?: unknown } | undefined,
    o: PageOptions,
  ): AsyncGenerator<Page<Item<Id, K>>, void, undefined> {
    const size = sizeOf(o, query?.limit);
    return paginate(num(query?.offset) ?? 0, size, o, async (at, limit, signal) => {
      const input = at.link
        ? { params, link: at.link }
        : { params, query: { ...query, limit, offset: at.offset } };
      const sent = await send(id, input, callOpts(o, signal));
      const p = paginationOf(sent.json);
      return rawPage(baseUrl, {
        sent,
        items: isRecord(sent.json) ? sent.json[key] : undefined,
        total: num(p.total),
        limit: num(p.limit),
        decode: () => (sent.decode() as Record<string, unknown>)[key] as Array<Item<Id, K>>,
        follow: true,
      });
    });
  }

  return {
    orders: (query?: QueryInput<'listOrders'>, o: PageOptions = {}) =>
      offsetList('listOrders', 'orders', undefined, query, o),
    orderItems: (query?: QueryInput<'listOrderItems'>, o: PageOptions = {}) =>
      offsetList('listOrderItems', 'order_items', undefined, query, o),
    aois: (query?: QueryInput<'listAois'>, o: PageOptions = {}) =>
      offsetList('listAois', 'aois', undefined, query, o),
    aoiAssets: (aoiId: string, query?: QueryInput<'listAoiAssets'>, o: PageOptions = {}) =>
      offsetList('listAoiAssets', 'assets', { aoi_id: aoiId }, query, o),
    indices: (query?: QueryInput<'listIndices'>, o: PageOptions = {}) =>
      offsetList('listIndices', 'indices', undefined, query, o),

    /**
     * Archive items: a FeatureCollection with no pagination object; `numberMatched` used as total
     * when present, STAC `next` links followed.
     */
    archiveItems(
      cid: string,
      query?: QueryInput<'listArchiveItems'>,
      o: PageOptions = {},
    ): AsyncGenerator<Page<Item<'listArchiveItems', 'features'>>, void, undefined> {
      const size = sizeOf(o, query?.limit);
      return paginate(num(query?.offset) ?? 0, size, o, async (at, limit, signal) => {
        const params = { cid };
        const input = at.link
          ? { params, link: at.link }
          : { params, query: { ...query, limit, offset: at.offset } };
        const sent = await send('listArchiveItems', input, callOpts(o, signal));
        const json = isRecord(sent.json) ? sent.json : {};
        const context = isRecord(json.context) ? json.context : {};
        return rawPage(baseUrl, {
          sent,
          items: json.features,
          total: num(json.numberMatched) ?? num(context.matched),
          limit: undefined,
          decode: () => sent.decode().features,
          follow: true,
        });
      });
    },

    /** Catalog search: offset in the body; the response may carry offset, skip or no pagination. */
    catalogs(
      search?: BodyInput<'searchCatalogs'>,
      o: PageOptions = {},
    ): AsyncGenerator<Page<Item<'searchCatalogs', 'catalogs'>>, void, undefined> {
      const size = sizeOf(o, search?.limit);
      return paginate(num(search?.offset) ?? 0, size, o, async (at, limit, signal) => {
        const sent = await send(
          'searchCatalogs',
          { body: { ...search, limit, offset: at.offset } },
          callOpts(o, signal),
        );
        const p = paginationOf(sent.json);
        return rawPage(baseUrl, {
          sent,
          items: isRecord(sent.json) ? sent.json.catalogs : undefined,
          total: num(p.total),
          limit: num(p.limit),
          decode: () => sent.decode().catalogs,
          follow: false,
        });
      });
    },

    /** Satellite image search: skip-based; items as a map of id to item, a FeatureCollection, an array or an object of arrays. */
    satelliteImages(
      body: BodyInput<'searchSatelliteImages'>,
      o: PageOptions = {},
    ): AsyncGenerator<Page<Record<string, unknown>>, void, undefined> {
      const size = sizeOf(o, body.limit);
      return paginate(num(body.skip) ?? 0, size, o, async (at, limit, signal) => {
        const sent = await send(
          'searchSatelliteImages',
          { body: { ...body, skip: at.offset, limit } },
          callOpts(o, signal),
        );
        const p = paginationOf(sent.json);
        return rawPage(baseUrl, {
          sent,
          items: satelliteItems(isRecord(sent.json) ? sent.json.items : undefined),
          total: num(p.total),
          limit: num(p.limit),
          decode: () => satelliteItems(sent.decode().items),
          follow: false,
          nested: 'items',
        });
      });
    },
  };
}

export type Pagers = ReturnType<typeof makePagers>;
