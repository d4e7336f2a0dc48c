/**
 * 4.3 POST /v0/catalogs/search: the org's catalog records filtered, sorted and paged in SQL
 * (`search-sql.ts` compiles the request), offset-based pagination `{ limit, offset, total }`.
 *
 * Records are stored as the JSON sent on the wire, so a page is those texts joined: no parse
 * and re-serialise per record (`RawJson`). A spatial search sorts its matches anyway, so it
 * counts them in the same pass (`count(*) OVER ()`); other searches walk an index for the page
 * and count separately.
 */
import { tryParseRfc3339, type CatalogSearchRequest } from '@eo/domain';
import type Database from 'better-sqlite3';
import type { AppContext } from '../context';
import { RawJson, type Router } from '../http/endpoint';
import { ApiError } from '../http/errors';
import { offsetPage } from '../http/pagination';
import { installSpatialFunctions, withQueryGeometry } from '../spatial-sql';
import type { CatalogRecordOut } from './repository';
import { catalogSearchStatements, compileCatalogSql } from './search-sql';

/** `eo_rfc3339(text)`: the domain's RFC 3339 parser in SQL (instant in µs, or NULL). */
function installTimeFunction(sqlite: Database.Database): void {
  sqlite.function('eo_rfc3339', { deterministic: true }, (v: unknown) => {
    if (typeof v !== 'string') return null;
    const r = tryParseRfc3339(v);
    return r.ok ? r.value : null;
  });
}

export interface CatalogSearchPage {
  /** The page's records as stored JSON texts. */
  readonly json: string[];
  readonly total: number;
}

export function makeCatalogSearch(sqlite: Database.Database) {
  installSpatialFunctions(sqlite);
  installTimeFunction(sqlite);
  const statements = new Map<string, Database.Statement>();
  const prepare = (sql: string) => {
    let s = statements.get(sql);
    if (!s) {
      if (statements.size >= 500) statements.clear();
      statements.set(sql, (s = sqlite.prepare(sql)));
    }
    return s;
  };

  return (orgId: string, req: CatalogSearchRequest): CatalogSearchPage => {
    let c;
    try {
      c = compileCatalogSql(orgId, req);
    } catch (e) {
      // The request schema rejects these first; a RangeError here is still a client mistake.
      if (e instanceof RangeError) throw ApiError.invalid('body', e.message);
      throw e;
    }
    if (c.empty) return { json: [], total: 0 };
    const sql = catalogSearchStatements(c);
    const count = (params: Record<string, unknown>) =>
      (prepare(sql.count).get(params) as { n: number }).n;
    const page = { limit: req.limit, offset: req.offset };
    if (c.geometry === null) {
      const total = count(c.params);
      if (total <= req.offset) return { json: [], total };
      const rows = prepare(sql.page).all({ ...c.params, ...page }) as Array<{
        record_json: string;
      }>;
      return { json: rows.map((r) => r.record_json), total };
    }
    return withQueryGeometry(sqlite, c.geometry, (token) => {
      const params = { ...c.params, token };
      const rows = prepare(sql.pageWithTotal).all({ ...params, ...page }) as Array<{
        record_json: string;
        total: number;
      }>;
      // An empty page carries no total: count (only when paging past the end).
      const total = rows.length > 0 ? rows[0]!.total : req.offset > 0 ? count(params) : 0;
      return { json: rows.map((r) => r.record_json), total };
    });
  };
}

/** Records of a page as objects (tests and in-process callers). */
export function pageRecords(page: CatalogSearchPage): CatalogRecordOut[] {
  return page.json.map((j) => JSON.parse(j) as CatalogRecordOut);
}

/** The response body of a page, as JSON text. */
export function catalogSearchBody(page: CatalogSearchPage, req: CatalogSearchRequest): RawJson {
  const pagination = JSON.stringify(offsetPage(req.limit, req.offset, page.total));
  return new RawJson(`{"catalogs":[${page.json.join(',')}],"pagination":${pagination}}`);
}

export function registerCatalogSearch(router: Router, ctx: AppContext): void {
  const search = makeCatalogSearch(ctx.sqlite);
  router.read('searchCatalogs', ({ principal, body }) =>
    catalogSearchBody(search(principal.orgId, body), body),
  );
}
