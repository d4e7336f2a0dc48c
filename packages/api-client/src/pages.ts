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
 * Read-ahead (on by default; `prefetch`): pages are requested before the caller asks for them, up
 * to a window of pages ahead of the one handed over (read-ahead.ts: from the measured round trip,
 * transfer and consumer times, 0 to READ_AHEAD_MAX; or fixed), bounded by `readAheadBytes`.
 * Pages are still handed over strictly in order. The next page is asked for as soon as the body
 * before it has arrived (its stop rules applied first, so never a page the rules would not ask
 * for), or earlier by prediction (offset paging only: the last page's count), never at or past a
 * known `total` nor past `maxPages`; a prediction is checked when its turn comes and, if it did
 * not hold, dropped and asked again. An error on a page read ahead surfaces when that page's turn
 * comes; when the caller stops early, every request in flight is aborted.
 */
import type { EndpointId } from '@eo/domain';
import { nextLinkOf, sameEndpointLink } from './links';
import { keepItemTexts } from './item-texts';
import type { CallOptions } from './options';
import { ReadAheadWindow } from './read-ahead';
import type { RequestInput } from './request';
import type { ResponseTiming } from './transport';
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
  /**
   * The service's clock when it answered this page (its `Date` header, ms since the epoch),
   * undefined when it sent none. A consumer bounding "changed since" markers by the time of its
   * own pass reads the service's time here rather than trusting the local clock.
   */
  readonly serverDateMs?: number | undefined;
}

export type PassEnd = 'total' | 'empty' | 'short' | 'repeated' | 'page-cap';

export interface PageOptions {
  /** Records per request. Default: the query's `limit`, else 100. */
  readonly pageSize?: number | undefined;
  readonly signal?: AbortSignal | undefined;
  /** Per-attempt timeout of each page request. */
  readonly timeoutMs?: number | undefined;
  /**
   * Read-ahead: pages requested before the caller asks for them, so round trips overlap the
   * caller's work and each other. Default (`true` or unset): a window of 0 to READ_AHEAD_MAX
   * pages chosen from the measured round trip, transfer and consumer times (see read-ahead.ts).
   * `false` or 0: off (each page is requested when the caller asks for it). A positive integer:
   * that many pages, always.
   */
  readonly prefetch?: boolean | number | undefined;
  /** Cap on response text held ahead of the caller (pages in flight or unconsumed). Default 32 MiB. */
  readonly readAheadBytes?: number | undefined;
  /** Most pages per pass, so a broken service cannot page forever (the last says `page-cap`). Default 10 000. */
  readonly maxPages?: number | undefined;
  /**
   * Keep each record's text as the page carried it, for `receivedTextOf` (catalog search only,
   * records handed on as parsed): for a caller that stores records as text.
   */
  readonly itemTexts?: boolean | undefined;
}

/** A response whose body has arrived but is not decoded (validated) yet. */
export interface Sent<Id extends EndpointId> {
  readonly endpoint: Id;
  readonly json: unknown;
  /** Path and query the request was sent to (relative to the base URL). */
  readonly path: string;
  readonly timing?: ResponseTiming | undefined;
  /** The response's `Date` header, ms since the epoch (undefined when absent or unreadable). */
  readonly serverDateMs?: number | undefined;
  /** Validates against the domain schema (reporting drift); throws EoResponseError if unusable. */
  decode(): ResponseOf<Id>;
  /** `decode`, and whether the value is `json` exactly as parsed from `text` (`Decoder.read`). */
  decodeAsReceived(): { value: ResponseOf<Id>; asReceived: boolean };
  /** The body's text, as `json` was parsed from it. */
  readonly text: string;
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
  /** How the response's time was spent, when the transport says. */
  readonly timing: ResponseTiming | undefined;
  readonly serverDateMs: number | undefined;
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
  /** The service's total as sent, and where in the body (checked by `countOf`). */
  readonly total: { readonly value: unknown; readonly path: string };
  /** Offset of the page's first record (a total below `offset + n` is contradicted). */
  readonly offset: number;
  readonly limit: number | undefined;
  readonly decode: () => T[];
  /** Follow GET `next` links (list reads); searches are POSTs and page by offset/skip only. */
  readonly follow: boolean;
  /** Where a nested FeatureCollection may carry the links (satellite search `items`). */
  readonly nested?: string;
}

/** Says what the pager made of a total it could not use (the client's `onSchemaDrift`). */
export type TotalReport = (endpoint: EndpointId, path: string, message: string) => void;

/**
 * The total of a page when it is a count the page itself does not contradict: a non-negative
 * integer (or a numeric string), at least the records up to the end of this page. Anything else
 * (negative, fractional, not a number, smaller than what the page holds) is read as unknown and
 * reported: taken as a total, "-1" or "3" would end the list after its first page.
 */
function countOf(value: unknown, offset: number, n: number): { total?: number; problem?: string } {
  if (value === undefined || value === null) return {};
  const total = num(value);
  if (total === undefined || !Number.isSafeInteger(total) || total < 0)
    return { problem: `${JSON.stringify(value)} is not a count of records` };
  if (n > 0 && offset + n > total)
    return {
      problem: `${total} is fewer than the ${offset + n} records up to the end of this page`,
    };
  return { total };
}

function rawPage<T>(baseUrl: string, p: RawPageInit<T>, report?: TotalReport): RawPage<T> {
  const list = Array.isArray(p.items) ? p.items : [];
  const next = nextLinkOf(p.sent.json, p.nested);
  const count = countOf(p.total.value, p.offset, list.length);
  if (count.problem !== undefined)
    report?.(
      p.sent.endpoint,
      p.total.path,
      `${count.problem}: read as unknown (the list ends at a short or an empty page)`,
    );
  return {
    n: list.length,
    total: count.total,
    limit: p.limit,
    first: list.length > 0 ? identity(list[0]) : undefined,
    linked: next !== undefined,
    link: next && p.follow ? sameEndpointLink(next, baseUrl, p.sent.path) : undefined,
    timing: p.sent.timing,
    serverDateMs: p.sent.serverDateMs,
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

/** A page requested and not yet handed over: in flight, or arrived and waiting its turn. */
interface Ahead<T> {
  readonly pageIndex: number;
  readonly at: Cursor;
  readonly controller: AbortController;
  readonly result: Promise<RawPage<T>>;
  /** Set when the body has arrived. */
  raw: RawPage<T> | undefined;
}

/** The page last handed over (or being handed over): where the next one starts. */
interface Current<T> {
  readonly pageIndex: number;
  readonly at: Cursor;
  readonly raw: RawPage<T>;
  readonly previousFirst: string | undefined;
}

const sameCursor = (a: Cursor, b: Cursor) => a.offset === b.offset && a.link === b.link;
const now = (): number => globalThis.performance?.now() ?? Date.now();

/** Why the pass ends after `raw`, by the stop rules, the repeated-page rule and the page cap. */
function endAfter(
  raw: RawPage<unknown>,
  pageIndex: number,
  offset: number,
  previousFirst: string | undefined,
  pageSize: number,
  maxPages: number,
): PassEnd | undefined {
  if (pageIndex > 0 && raw.first !== undefined && raw.first === previousFirst) return 'repeated';
  return endOf(raw, offset, pageSize) ?? (pageIndex + 1 >= maxPages ? 'page-cap' : undefined);
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
  const readAhead = new ReadAheadWindow(o.prefetch, o.readAheadBytes);
  // The pass's own signal: every request of it stops when the caller stops or aborts.
  const pass = new AbortController();
  const onAbort = () => pass.abort();
  if (o.signal?.aborted) pass.abort();
  o.signal?.addEventListener('abort', onAbort, { once: true });

  /** Requested, not handed over yet, in page order; `queue[0]` is the next page to hand over. */
  const queue: Array<Ahead<T>> = [];
  let current: Current<T> | undefined;
  /** The latest `total` the service gave: no page at or past it is ever asked for. */
  let total: number | undefined;
  /** A service that gives followable links: the next page is asked for by its link only. */
  let linked = false;
  let finished = false;

  const launch = (pageIndex: number, at: Cursor): void => {
    const controller = new AbortController();
    const stop = () => controller.abort();
    if (pass.signal.aborted) controller.abort();
    else pass.signal.addEventListener('abort', stop, { once: true });
    const entry: Ahead<T> = {
      pageIndex,
      at,
      controller,
      raw: undefined,
      result: fetchPage(at, pageSize, controller.signal).then(
        (raw) => {
          pass.signal.removeEventListener('abort', stop);
          entry.raw = raw;
          readAhead.observeNetwork(raw.timing);
          if (raw.total !== undefined) total = raw.total;
          if (raw.link !== undefined) linked = true;
          fill();
          return raw;
        },
        (e: unknown) => {
          pass.signal.removeEventListener('abort', stop);
          throw e;
        },
      ),
    };
    // Awaited in turn (or never, if the caller stops first): no unhandled rejection meanwhile.
    entry.result.catch(() => undefined);
    queue.push(entry);
  };

  /**
   * Tops the read-ahead up to the window. The next cursor is certain when the page before it
   * has arrived (its count, its link, and the stop rules applied to it); otherwise it is a
   * prediction (same count as the last page) made only for offset paging, checked when its turn
   * comes: a wrong one is dropped and asked for again, so pages are never skipped or repeated.
   */
  function fill(): void {
    while (!finished && current !== undefined && queue.length < readAhead.depth) {
      if (!readAhead.allows(queue.length)) return;
      const i = queue.length - 1;
      const base = queue[i] ?? current;
      const before = i > 0 ? queue[i - 1]!.raw : i === 0 ? current.raw : undefined;
      let at: Cursor;
      if (base.raw !== undefined) {
        const first = i >= 0 ? before?.first : current.previousFirst;
        const rule = endAfter(base.raw, base.pageIndex, base.at.offset, first, pageSize, maxPages);
        if (rule !== undefined) return;
        at = { offset: base.at.offset + base.raw.n, link: base.raw.link };
      } else {
        const n = current.raw.n;
        if (linked || n === 0) return;
        at = { offset: base.at.offset + n, link: undefined };
      }
      if (total !== undefined && at.offset >= total) return;
      if (base.pageIndex + 1 >= maxPages) return;
      launch(base.pageIndex + 1, at);
    }
  }

  try {
    let at: Cursor = { offset: start, link: undefined };
    for (let pageIndex = 0; ; pageIndex++) {
      if (queue[0] !== undefined && !sameCursor(queue[0].at, at)) {
        // A prediction that did not hold (a page shorter than the one before): drop the rest.
        for (const entry of queue.splice(0)) entry.controller.abort();
      }
      if (queue[0] === undefined) launch(pageIndex, at);
      const page = await queue[0]!.result;
      queue.shift();
      const arrived = now();
      const { offset } = at;
      const previousFirst = current?.raw.first;
      const end = endAfter(page, pageIndex, offset, previousFirst, pageSize, maxPages);
      current = { pageIndex, at, raw: page, previousFirst };
      if (end !== undefined) {
        // The pass ends here: whatever was asked for beyond it is not needed.
        finished = true;
        for (const entry of queue.splice(0)) entry.controller.abort();
      }
      const serverDateMs = page.serverDateMs;
      if (end === 'repeated') {
        yield { items: [], total: page.total, offset, pageIndex, end, serverDateMs };
        return;
      }
      if (end === undefined) fill();
      yield { items: page.decode(), total: page.total, offset, pageIndex, end, serverDateMs };
      if (end !== undefined) return;
      readAhead.observeWork(now() - arrived);
      at = { offset: offset + page.n, link: page.link };
      fill();
    }
  } finally {
    finished = true;
    o.signal?.removeEventListener('abort', onAbort);
    pass.abort();
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

/**
 * `satelliteSearchSkip`: the service pages satellite search by `skip` (our spec); without it (the
 * provider's service) one request is the whole pass, ending `page-cap` when `total` says more.
 */
export function makePagers(
  send: Send,
  baseUrl: string,
  satelliteSearchSkip = true,
  report?: TotalReport,
) {
  const page = <T>(init: RawPageInit<T>) => rawPage(baseUrl, init, report);
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
      return page({
        sent,
        items: isRecord(sent.json) ? sent.json[key] : undefined,
        total: { value: p.total, path: 'pagination.total' },
        offset: at.offset,
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
        const matched =
          json.numberMatched !== undefined
            ? { value: json.numberMatched, path: 'numberMatched' }
            : { value: context.matched, path: 'context.matched' };
        return page({
          sent,
          items: json.features,
          total: matched,
          offset: at.offset,
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
        return page({
          sent,
          items: isRecord(sent.json) ? sent.json.catalogs : undefined,
          total: { value: p.total, path: 'pagination.total' },
          offset: at.offset,
          limit: num(p.limit),
          decode: () => {
            if (!o.itemTexts) return sent.decode().catalogs;
            const { value, asReceived } = sent.decodeAsReceived();
            if (asReceived) keepItemTexts(sent.text, 'catalogs', value.catalogs);
            return value.catalogs;
          },
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
      const pass = satelliteSearchSkip ? o : { ...o, maxPages: 1 };
      return paginate(num(body.skip) ?? 0, size, pass, async (at, limit, signal) => {
        const sent = await send(
          'searchSatelliteImages',
          { body: { ...body, skip: at.offset, limit } },
          callOpts(o, signal),
        );
        const p = paginationOf(sent.json);
        return page({
          sent,
          items: satelliteItems(isRecord(sent.json) ? sent.json.items : undefined),
          total: { value: p.total, path: 'pagination.total' },
          offset: at.offset,
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
