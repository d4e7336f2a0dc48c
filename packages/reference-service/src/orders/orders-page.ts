/**
 * GET /v0/orders bodies: `{"orders":[` + the page's stored `orders.wire_json` joined by commas
 * + `],"pagination":{...}}`.
 *
 * A page's orders are read as texts (`CAST(wire_json AS TEXT)`: V8 strings in the young heap,
 * no copy of the page made in SQLite) and encoded once into the body (http/json-bytes.ts). The
 * texts are exact: `wire_json` is only ever the UTF-8 of a JS string (valid UTF-8), so decoding
 * and encoding it again gives its bytes back. A database whose text encoding is not UTF-8 is
 * read as bytes instead: SQLite would read the stored bytes as UTF-16.
 *
 * With the page cache (wire-cache.ts), whole bodies are kept under a key of the query, the
 * total and every `id@wire_version` of the page, read on every request; an unchanged page is
 * the same Buffer again (http/compression.ts keeps its compressed forms beside it), a page
 * missing from it is joined into a Buffer of its own, which the cache keeps. Without the page
 * cache, a page is its parts (`JsonParts`), which the endpoint joins into a Buffer lent for that
 * one response (http/body-pool.ts): a fresh body-sized Buffer per request (when SQLite joined
 * the page, its `group_concat` and better-sqlite3's copy of it) cost a third of the request in
 * page faults.
 */
import type { ListOrdersQuery } from '@eo/domain';
import type Database from 'better-sqlite3';
import { JsonParts, joinedJsonBytes } from '../http/json-bytes';
import { fitPage, offsetPage } from '../http/pagination';
import { ByteLru } from './wire-cache';

const OPEN = '{"orders":[';
const ORDER_BY = 'ORDER BY created_at, id';

interface Scope {
  org: string;
  user?: string;
}

/** The statements of one scope (the organisation, or one user of it). */
function pageStatements(sqlite: Database.Database, byUser: boolean, utf8: boolean) {
  const where = byUser ? 'org_id = @org AND user_id = @user' : 'org_id = @org';
  const page = (columns: string) =>
    `SELECT ${columns} FROM orders WHERE ${where} ${ORDER_BY} LIMIT @limit OFFSET @offset`;
  return {
    total: sqlite.prepare<[Scope], number>(`SELECT count(*) FROM orders WHERE ${where}`).pluck(),
    /** [id, wire_version, bytes of wire_json]: the page's keys and sizes, no JSON read. */
    refs: sqlite
      .prepare<[Scope & { limit: number; offset: number }], [string, number, number]>(
        page('id, wire_version, length(wire_json)'),
      )
      .raw(),
    /** The page's wire JSON as texts, in list order (as bytes if the database is not UTF-8). */
    wireTexts: sqlite
      .prepare<[Scope & { limit: number; offset: number }], string | Buffer>(
        page(utf8 ? 'CAST(wire_json AS TEXT)' : 'wire_json'),
      )
      .pluck(),
  };
}

/**
 * `ordersPage(orgId, query)`: the body of GET /v0/orders (its parts when there is no page
 * cache). `maxPageBytes`: a page ends early rather than grow past it (its `pagination.limit`
 * then says how many orders it holds); `cacheBytes`: the page cache's budget, 0 for none.
 */
export function makeOrdersPages(
  sqlite: Database.Database,
  maxPageBytes: number,
  cacheBytes: number,
) {
  /** SQLite reads stored bytes as text in the database's encoding: only UTF-8 is ours. */
  const utf8 = sqlite.pragma('encoding', { simple: true }) === 'UTF-8';
  const ofOrg = pageStatements(sqlite, false, utf8);
  const ofUser = pageStatements(sqlite, true, utf8);
  const cache = cacheBytes > 0 ? new ByteLru(cacheBytes) : null;
  const listVersion = sqlite
    .prepare<[string], number>('SELECT version FROM order_list_versions WHERE org_id = ?')
    .pluck();

  /** The page without a page cache: its parts, in one read of the page's orders. */
  const uncachedParts = sqlite.transaction((scope: Scope, q: ListOrdersQuery): JsonParts => {
    const s = scope.user === undefined ? ofOrg : ofUser;
    const total = s.total.get(scope)!;
    // Measured here: SQLite's length() of each row cost about 4x as much as this.
    const wires = s.wireTexts
      .all({ ...scope, limit: q.limit, offset: q.offset })
      .map((w) => [typeof w === 'string' ? Buffer.byteLength(w) : w.length, w] as const);
    const page = fitPage(wires, q.limit, ([bytes]) => bytes, maxPageBytes);
    const close = `],"pagination":${JSON.stringify(offsetPage(page.limit, q.offset, total))}}`;
    const parts = page.rows.map(([, wire]) => wire);
    return new JsonParts(
      OPEN,
      parts,
      close,
      page.rows.map(([bytes]) => bytes),
    );
  });

  /**
   * The page from the database: its keys and total are read on every call; the body comes
   * from the page cache when it holds these exact orders, or is joined (and kept there).
   */
  const build = sqlite.transaction((pages: ByteLru, scope: Scope, q: ListOrdersQuery): Buffer => {
    // One read transaction: the total, the keys and the body are of one database state,
    // even while another connection writes.
    const s = scope.user === undefined ? ofOrg : ofUser;
    const total = s.total.get(scope)!;
    const refs = s.refs.all({ ...scope, limit: q.limit, offset: q.offset });
    const keys = refs.map(([id, version]) => `${id}@${version}`).join(',');
    const cacheKey = `page:${JSON.stringify([scope.org, scope.user ?? null, q.limit, q.offset, total])}:${keys}`;
    const hit = pages.get(cacheKey);
    if (hit) return hit;

    // A page ends early rather than grow past the byte budget (one tenant's huge orders must
    // not make every page of theirs megabytes); `limit` then says how many it holds.
    const page = fitPage(refs, q.limit, ([, , bytes]) => bytes, maxPageBytes);
    const close = `],"pagination":${JSON.stringify(offsetPage(page.limit, q.offset, total))}}`;
    const wires = s.wireTexts.all({ ...scope, limit: page.rows.length, offset: q.offset });
    const body = joinedJsonBytes(OPEN, wires, close);
    pages.set(cacheKey, body);
    return body;
  });

  return function ordersPage(orgId: string, q: ListOrdersQuery): Buffer | JsonParts {
    const scope: Scope = q.user_id === undefined ? { org: orgId } : { org: orgId, user: q.user_id };
    if (!cache) return uncachedParts(scope, q);
    // Nothing of the organisation's orders changed since this page was built: same bytes.
    const listKey = `list:${JSON.stringify([orgId, q.user_id ?? null, q.limit, q.offset, listVersion.get(orgId) ?? 0])}`;
    const unchanged = cache.get(listKey);
    if (unchanged) return unchanged;
    const body = build(cache, scope, q);
    cache.set(listKey, body);
    return body;
  };
}
