/**
 * Pagination as async iterators of pages, over the three shapes the service may use:
 * offset-based (`limit, offset, total`), skip-based (`limit, skip, total`) and none at all
 * (catalog search's shape is not shown by the spec; archive items have no pagination object).
 *
 * A pager stops on an empty page, on a page shorter than the page size, when `total` is reached,
 * and, so that a service that ignores the offset cannot make it loop forever, when a page starts
 * with the same record as the page before it (that repeated page is not yielded).
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
}

export interface PageOptions {
  /** Records per request. Default: the query's `limit`, else 100. */
  readonly pageSize?: number | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Per-attempt timeout of each page request. */
  readonly timeoutMs?: number | undefined;
  /** Request the next page while the current one is validated and consumed (high-latency links). Default false. */
  readonly prefetch?: boolean | undefined;
}

/** A response whose body has arrived but is not decoded (validated) yet. */
export interface Sent<Id extends EndpointId> {
  readonly json: unknown;
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
  decode(): T[];
}

const DEFAULT_PAGE_SIZE = 100;

function num(v: unknown): number | undefined {
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

function rawPage<T>(
  items: unknown,
  total: number | undefined,
  limit: number | undefined,
  decode: () => T[],
): RawPage<T> {
  const list = Array.isArray(items) ? items : [];
  return {
    n: list.length,
    total,
    limit,
    first: list.length > 0 ? identity(list[0]) : undefined,
    decode,
  };
}

async function* paginate<T>(
  start: number,
  pageSize: number,
  o: PageOptions,
  fetchPage: (offset: number, limit: number, signal: AbortSignal) => Promise<RawPage<T>>,
): AsyncGenerator<Page<T>, void, undefined> {
  // Our own controller, so a read-ahead request can be cancelled when the caller stops early.
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  if (o.signal?.aborted) controller.abort();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  const request = (offset: number) => {
    const p = fetchPage(offset, pageSize, controller.signal);
    // Awaited later (or never, if the caller stops): no unhandled rejection meanwhile.
    p.catch(() => undefined);
    return p;
  };
  try {
    let offset = start;
    let previousFirst: string | undefined;
    let pending = request(offset);
    for (let pageIndex = 0; ; pageIndex++) {
      const page = await pending;
      if (pageIndex > 0 && page.first !== undefined && page.first === previousFirst) return;
      const next = offset + page.n;
      const more =
        page.n > 0 &&
        !(page.total !== undefined && next >= page.total) &&
        page.n >= (page.limit ?? pageSize);
      const ahead = more && o.prefetch === true ? request(next) : undefined;
      yield { items: page.decode(), total: page.total, offset, pageIndex };
      if (!more) return;
      offset = next;
      previousFirst = page.first;
      pending = ahead ?? request(offset);
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
 * Records of a satellite search `items` value, whose structure the spec does not show: a
 * FeatureCollection (`features`), an array, or an object of arrays (concatenated in key order).
 */
export function satelliteItems(items: unknown): Array<Record<string, unknown>> {
  if (Array.isArray(items)) return items as Array<Record<string, unknown>>;
  if (!isRecord(items)) return [];
  if (Array.isArray(items.features)) return items.features as Array<Record<string, unknown>>;
  return Object.values(items)
    .filter((v): v is unknown[] => Array.isArray(v))
    .flat() as Array<Record<string, unknown>>;
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

export function makePagers(send: Send) {
  /** A GET list with offset pagination: `{ <key>: [...], pagination: { limit, offset, total } }`. */
  function offsetList<Id extends EndpointId, K extends string & keyof ResponseOf<Id>>(
    id: Id,
    key: K,
    params: Record<string, string> | undefined,
    query: { limit?: unknown; offset?: unknown } | undefined,
    o: PageOptions,
  ): AsyncGenerator<Page<Item<Id, K>>, void, undefined> {
    const size = sizeOf(o, query?.limit);
    return paginate(num(query?.offset) ?? 0, size, o, async (offset, limit, signal) => {
      const sent = await send(
        id,
        { params, query: { ...query, limit, offset } },
        callOpts(o, signal),
      );
      const p = paginationOf(sent.json);
      return rawPage(
        isRecord(sent.json) ? sent.json[key] : undefined,
        num(p.total),
        num(p.limit),
        () => (sent.decode() as Record<string, unknown>)[key] as Array<Item<Id, K>>,
      );
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

    /** Archive items: a FeatureCollection with no pagination object; `numberMatched` used as total when present. */
    archiveItems(
      cid: string,
      query?: QueryInput<'listArchiveItems'>,
      o: PageOptions = {},
    ): AsyncGenerator<Page<Item<'listArchiveItems', 'features'>>, void, undefined> {
      const size = sizeOf(o, query?.limit);
      return paginate(num(query?.offset) ?? 0, size, o, async (offset, limit, signal) => {
        const sent = await send(
          'listArchiveItems',
          { params: { cid }, query: { ...query, limit, offset } },
          callOpts(o, signal),
        );
        const json = isRecord(sent.json) ? sent.json : {};
        const context = isRecord(json.context) ? json.context : {};
        return rawPage(
          json.features,
          num(json.numberMatched) ?? num(context.matched),
          undefined,
          () => sent.decode().features,
        );
      });
    },

    /** Catalog search: offset in the body; the response may carry offset, skip or no pagination. */
    catalogs(
      search?: BodyInput<'searchCatalogs'>,
      o: PageOptions = {},
    ): AsyncGenerator<Page<Item<'searchCatalogs', 'catalogs'>>, void, undefined> {
      const size = sizeOf(o, search?.limit);
      return paginate(num(search?.offset) ?? 0, size, o, async (offset, limit, signal) => {
        const sent = await send(
          'searchCatalogs',
          { body: { ...search, limit, offset } },
          callOpts(o, signal),
        );
        const p = paginationOf(sent.json);
        return rawPage(
          isRecord(sent.json) ? sent.json.catalogs : undefined,
          num(p.total),
          num(p.limit),
          () => sent.decode().catalogs,
        );
      });
    },

    /** Satellite image search: skip-based; items from a FeatureCollection, an array or an object of arrays. */
    satelliteImages(
      body: BodyInput<'searchSatelliteImages'>,
      o: PageOptions = {},
    ): AsyncGenerator<Page<Record<string, unknown>>, void, undefined> {
      const size = sizeOf(o, body.limit);
      return paginate(num(body.skip) ?? 0, size, o, async (skip, limit, signal) => {
        const sent = await send(
          'searchSatelliteImages',
          { body: { ...body, skip, limit } },
          callOpts(o, signal),
        );
        const p = paginationOf(sent.json);
        return rawPage(
          satelliteItems(isRecord(sent.json) ? sent.json.items : undefined),
          num(p.total),
          num(p.limit),
          () => satelliteItems(sent.decode().items),
        );
      });
    },
  };
}

export type Pagers = ReturnType<typeof makePagers>;
