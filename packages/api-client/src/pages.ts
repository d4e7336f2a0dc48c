/**
 * Pagination as async iterators of pages, over the three shapes the service may use:
 * offset-based (`limit, offset, total`), skip-based (`limit, skip, total`) and none at all
 * (catalog search's shape is not shown by the spec; archive items have no pagination object).
 *
 * A pager stops on an empty page, on a page shorter than the page size, when `total` is reached,
 * and, so that a service that ignores the offset cannot make it loop forever, when a page starts
 * with the same record as the page before it (that repeated page is not yielded).
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
}

export type Invoke = <Id extends EndpointId>(
  id: Id,
  input: RequestInput,
  options?: CallOptions,
) => Promise<ResponseOf<Id>>;

interface FetchedPage<T> {
  readonly items: T[];
  readonly total: number | undefined;
  /** The page size the service says it used, when it says. */
  readonly limit: number | undefined;
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

async function* paginate<T>(
  start: number,
  pageSize: number,
  fetchPage: (offset: number, limit: number) => Promise<FetchedPage<T>>,
): AsyncGenerator<Page<T>, void, undefined> {
  let offset = start;
  let previousFirst: string | undefined;
  for (let pageIndex = 0; ; pageIndex++) {
    const page = await fetchPage(offset, pageSize);
    const n = page.items.length;
    const first = n > 0 ? identity(page.items[0]) : undefined;
    if (pageIndex > 0 && first !== undefined && first === previousFirst) return;
    yield { items: page.items, total: page.total, offset, pageIndex };
    if (n === 0) return;
    const next = offset + n;
    if (page.total !== undefined && next >= page.total) return;
    if (n < (page.limit ?? pageSize)) return;
    offset = next;
    previousFirst = first;
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

function callOpts(o: PageOptions): CallOptions {
  return { signal: o.signal, timeoutMs: o.timeoutMs };
}

function sizeOf(o: PageOptions, limit: unknown): number {
  const size = o.pageSize ?? num(limit) ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(size) || size < 1) throw new RangeError('pageSize must be an integer >= 1');
  return size;
}

export function makePagers(invoke: Invoke) {
  /** A GET list with offset pagination: `{ <key>: [...], pagination: { limit, offset, total } }`. */
  function offsetList<Id extends EndpointId, K extends string & keyof ResponseOf<Id>>(
    id: Id,
    key: K,
    params: Record<string, string> | undefined,
    query: { limit?: unknown; offset?: unknown } | undefined,
    o: PageOptions,
  ): AsyncGenerator<Page<Item<Id, K>>, void, undefined> {
    const size = sizeOf(o, query?.limit);
    return paginate(num(query?.offset) ?? 0, size, async (offset, limit) => {
      const res = (await invoke(
        id,
        { params, query: { ...query, limit, offset } },
        callOpts(o),
      )) as Record<string, unknown>;
      const pagination = isRecord(res.pagination) ? res.pagination : {};
      return {
        items: res[key] as Array<Item<Id, K>>,
        total: num(pagination.total),
        limit: num(pagination.limit),
      };
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
      return paginate(num(query?.offset) ?? 0, size, async (offset, limit) => {
        const res = (await invoke(
          'listArchiveItems',
          { params: { cid }, query: { ...query, limit, offset } },
          callOpts(o),
        )) as Record<string, unknown>;
        const context = isRecord(res.context) ? res.context : {};
        return {
          items: res.features as Array<Item<'listArchiveItems', 'features'>>,
          total: num(res.numberMatched) ?? num(context.matched),
          limit: undefined,
        };
      });
    },

    /** Catalog search: offset in the body; the response may carry offset, skip or no pagination. */
    catalogs(
      search?: BodyInput<'searchCatalogs'>,
      o: PageOptions = {},
    ): AsyncGenerator<Page<Item<'searchCatalogs', 'catalogs'>>, void, undefined> {
      const size = sizeOf(o, search?.limit);
      return paginate(num(search?.offset) ?? 0, size, async (offset, limit) => {
        const res = (await invoke(
          'searchCatalogs',
          { body: { ...search, limit, offset } },
          callOpts(o),
        )) as Record<string, unknown>;
        const pagination = isRecord(res.pagination) ? res.pagination : {};
        return {
          items: res.catalogs as Array<Item<'searchCatalogs', 'catalogs'>>,
          total: num(pagination.total),
          limit: num(pagination.limit),
        };
      });
    },

    /** Satellite image search: skip-based; items from a FeatureCollection, an array or an object of arrays. */
    satelliteImages(
      body: BodyInput<'searchSatelliteImages'>,
      o: PageOptions = {},
    ): AsyncGenerator<Page<Record<string, unknown>>, void, undefined> {
      const size = sizeOf(o, body.limit);
      return paginate(num(body.skip) ?? 0, size, async (skip, limit) => {
        const res = (await invoke(
          'searchSatelliteImages',
          { body: { ...body, skip, limit } },
          callOpts(o),
        )) as Record<string, unknown>;
        const pagination = isRecord(res.pagination) ? res.pagination : {};
        return {
          items: satelliteItems(res.items),
          total: num(pagination.total),
          limit: num(pagination.limit),
        };
      });
    },
  };
}

export type Pagers = ReturnType<typeof makePagers>;
