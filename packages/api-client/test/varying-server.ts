/**
 * A service on 127.0.0.1 that answers list and search endpoints the way real services vary
 * (capped page sizes, a `limit` echoed as asked or not at all, no `total`, `next` links, error
 * bodies of several shapes), built on the recording `http-server.ts`. Reusable beyond the
 * api-client's own tests (a mirror-level test can serve a whole dataset through it): import
 * `@eo/api-client/test/varying-server` (a test-only subpath, not the package entry).
 *
 * ```ts
 * const srv = await startVaryingServer({ orders: { records: orders } }, { pageCap: 100, total: false });
 * srv.vary({ links: 'stac' });             // change how later answers look
 * srv.failNext('/v0/orders', errorReply('real-object', 400, { ... }));
 * ```
 */
import { startHttpServer, type Recorded, type Reply, type TestHttpServer } from './http-server';

/** How list answers vary from what the spec shows. Every field optional; defaults = the spec. */
export interface Variation {
  /** Most records per page, whatever `limit` was asked (a service capping page size). */
  readonly pageCap?: number | undefined;
  /** `limit` in the pagination object: the one asked (default), the one served, or none. */
  readonly echoLimit?: 'asked' | 'served' | 'none';
  /** Include `pagination.total` (default true). */
  readonly total?: boolean;
  /** No `pagination` object at all. */
  readonly noPagination?: boolean;
  /**
   * `next` links: none (default), STAC `links: [{ rel: 'next', href }]` on the body, or
   * `pagination.next`. Hrefs are absolute URLs on `linkOrigin` (default: this server).
   */
  readonly links?: 'none' | 'stac' | 'pagination';
  readonly linkOrigin?: string | undefined;
  /** Ignore the asked offset / skip (always the first page): a broken service. */
  readonly ignoreOffset?: boolean;
  /** Skip-shaped pagination object (`skip` instead of `offset`). */
  readonly skipShaped?: boolean;
}

/**
 * One list the server pages: the records and where they sit in the body. `style`: `offset` =
 * `{ <key>: [...], pagination }`, `features` = a STAC FeatureCollection, `map` = satellite search
 * answering `items` as a map of item id to item (as the real service does).
 */
export interface ListSpec {
  readonly records: readonly unknown[];
  readonly style?: 'offset' | 'features' | 'map';
}

/** The endpoints served; each optional. Paths are the spec's. */
export interface Dataset {
  readonly orders?: ListSpec;
  readonly orderItems?: ListSpec;
  readonly aois?: ListSpec;
  readonly indices?: ListSpec;
  /** POST /v0/catalogs/search (offset and limit in the body). */
  readonly catalogs?: ListSpec;
  /** GET /v0/aois/{aoi_id}/assets, per AOI id. */
  readonly assets?: Readonly<Record<string, ListSpec>>;
  /** GET /v0/archives/collections/{cid}/items, per collection id. */
  readonly archive?: Readonly<Record<string, ListSpec>>;
  /** POST /v0/search (skip and limit in the body). */
  readonly satellite?: ListSpec;
}

export interface VaryingServer {
  readonly url: string;
  readonly requests: Recorded[];
  /** Changes the variation for later answers (merged over the current one). */
  vary(v: Variation): void;
  /** The next request to `path` (exact, without query) gets this reply instead of its page. */
  failNext(path: string, reply: Reply): void;
  close(): Promise<void>;
}

const LIST_KEYS = {
  orders: ['/v0/orders', 'orders'],
  orderItems: ['/v0/order-items', 'order_items'],
  aois: ['/v0/aois', 'aois'],
  indices: ['/v0/indices', 'indices'],
} as const;

function idOf(record: unknown, i: number): string {
  const r = record as Record<string, unknown> | null;
  const id = r && typeof r === 'object' ? (r.id ?? r.aoi_id) : undefined;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : `item-${i}`;
}

/** The list a request asks for, with the keys its paging lives under. */
function route(
  data: Dataset,
  r: Recorded,
): { spec: ListSpec; key: string; inBody: boolean; offsetKey: string } | undefined {
  for (const [name, [path, key]] of Object.entries(LIST_KEYS)) {
    const spec = data[name as keyof typeof LIST_KEYS];
    if (spec && r.method === 'GET' && r.path === path)
      return { spec, key, inBody: false, offsetKey: 'offset' };
  }
  const assets = /^\/v0\/aois\/([^/]+)\/assets$/.exec(r.path);
  const aoi = assets ? data.assets?.[decodeURIComponent(assets[1]!)] : undefined;
  if (aoi) return { spec: aoi, key: 'assets', inBody: false, offsetKey: 'offset' };
  const archive = /^\/v0\/archives\/collections\/([^/]+)\/items$/.exec(r.path);
  const collection = archive ? data.archive?.[decodeURIComponent(archive[1]!)] : undefined;
  if (collection)
    return {
      spec: { style: 'features', ...collection },
      key: 'features',
      inBody: false,
      offsetKey: 'offset',
    };
  if (data.catalogs && r.method === 'POST' && r.path === '/v0/catalogs/search')
    return { spec: data.catalogs, key: 'catalogs', inBody: true, offsetKey: 'offset' };
  if (data.satellite && r.method === 'POST' && r.path === '/v0/search')
    return {
      spec: { style: 'map', ...data.satellite },
      key: 'items',
      inBody: true,
      offsetKey: 'skip',
    };
  return undefined;
}

/** One page of a list, shaped by the variation. */
export function answerPage(
  r: Recorded,
  list: { spec: ListSpec; key: string; inBody: boolean; offsetKey: string },
  v: Variation,
  selfUrl: string,
): Reply {
  const src = (list.inBody ? r.body : r.query) as Record<string, unknown> | undefined;
  const askedLimit = Number(src?.limit ?? 10);
  const askedOffset = v.ignoreOffset ? 0 : Number(src?.[list.offsetKey] ?? 0);
  const served = Math.min(askedLimit, v.pageCap ?? Infinity);
  const all = list.spec.records;
  const slice = all.slice(askedOffset, askedOffset + served);
  const more = askedOffset + slice.length < all.length;

  const pagination: Record<string, unknown> = {};
  if (v.echoLimit !== 'none') pagination.limit = v.echoLimit === 'served' ? served : askedLimit;
  pagination[v.skipShaped ? 'skip' : 'offset'] = askedOffset;
  if (v.total !== false) pagination.total = all.length;

  let next: string | undefined;
  if (more && (v.links === 'stac' || v.links === 'pagination')) {
    const u = new URL(r.path, v.linkOrigin ?? selfUrl);
    // The service's own cursor: the next offset at the page size it actually served.
    for (const [k, x] of Object.entries(r.query)) u.searchParams.set(k, x);
    u.searchParams.set('limit', String(served));
    u.searchParams.set(list.offsetKey, String(askedOffset + slice.length));
    next = u.href;
  }
  if (next && v.links === 'pagination') pagination.next = next;

  const body: Record<string, unknown> = {};
  const style = list.spec.style ?? 'offset';
  if (style === 'features') {
    body.type = 'FeatureCollection';
    body.features = slice;
  } else if (style === 'map') {
    body.items = Object.fromEntries(slice.map((x, i) => [idOf(x, askedOffset + i), x]));
  } else {
    body[list.key] = slice;
  }
  if (v.links === 'stac' || style === 'features') {
    const links: Array<Record<string, unknown>> = [
      { rel: 'self', href: new URL(r.url, selfUrl).href },
    ];
    if (next && v.links === 'stac')
      links.push(
        list.inBody
          ? {
              rel: 'next',
              href: next,
              method: 'POST',
              body: { ...(r.body as object), [list.offsetKey]: askedOffset + slice.length },
            }
          : { rel: 'next', href: next },
      );
    body.links = links;
  }
  // A FeatureCollection has no pagination object (the real document's shape).
  if (!v.noPagination && style !== 'features') body.pagination = pagination;
  return { json: body };
}

/** Error bodies in the shapes services use. `fields` are per-field messages. */
export type ErrorShape =
  | 'real' // { error: { code, message, details: null } } (the real service)
  | 'real-object' // { error: { code, message, details: { <field>: <message> } } }
  | 'ours' // { error: { code, message, details: [{ path, message }] } }
  | 'flat' // { code, message }
  | 'fastapi' // { detail: "message" }
  | 'fastapi-list' // { detail: [{ loc, msg, type }] }
  | 'text'; // plain text

export function errorReply(
  shape: ErrorShape,
  status: number,
  e: { code: string; message: string; fields?: Record<string, string> },
): Reply {
  const fields = Object.entries(e.fields ?? {});
  switch (shape) {
    case 'real':
      return { status, json: { error: { code: e.code, message: e.message, details: null } } };
    case 'real-object':
      return {
        status,
        json: { error: { code: e.code, message: e.message, details: Object.fromEntries(fields) } },
      };
    case 'ours':
      return {
        status,
        json: {
          error: {
            code: e.code,
            message: e.message,
            details: fields.map(([path, message]) => ({ path, message })),
          },
        },
      };
    case 'flat':
      return { status, json: { code: e.code, message: e.message } };
    case 'fastapi':
      return { status, json: { detail: e.message } };
    case 'fastapi-list':
      return {
        status,
        json: {
          detail: fields.map(([path, msg]) => ({
            loc: ['body', ...path.split('.')],
            msg,
            type: 'value_error',
          })),
        },
      };
    case 'text':
      return { status, text: e.message, headers: { 'content-type': 'text/plain' } };
  }
}

export async function startVaryingServer(
  data: Dataset,
  initial: Variation = {},
): Promise<VaryingServer> {
  let variation: Variation = { ...initial };
  const failures = new Map<string, Reply[]>();
  let srv: TestHttpServer | undefined = undefined;
  srv = await startHttpServer((r) => {
    const queued = failures.get(r.path)?.shift();
    if (queued) return queued;
    const list = route(data, r);
    if (!list) return errorReply('real', 404, { code: 'not_found', message: `no route ${r.path}` });
    return answerPage(r, list, variation, srv!.url);
  });
  const server = srv;
  return {
    url: server.url,
    requests: server.requests,
    vary(v) {
      variation = { ...variation, ...v };
    },
    failNext(path, reply) {
      const q = failures.get(path) ?? [];
      q.push(reply);
      failures.set(path, q);
    },
    close: () => server.close(),
  };
}
