/**
 * 4.3 POST /v0/catalogs/search: the org's catalog records filtered, sorted and paged in SQL
 * (`search-sql.ts` compiles the request), offset-based pagination `{ limit, offset, total }`.
 */
import { tryParseRfc3339, type CatalogSearchRequest } from '@eo/domain';
import type Database from 'better-sqlite3';
import type { AppContext } from '../context';
import type { Router } from '../http/endpoint';
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
  readonly records: CatalogRecordOut[];
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
    if (c.empty) return { records: [], total: 0 };
    const sql = catalogSearchStatements(c);
    const run = (params: Record<string, unknown>): CatalogSearchPage => {
      const total = (prepare(sql.count).get(params) as { n: number }).n;
      if (total <= req.offset) return { records: [], total };
      const rows = prepare(sql.page).all({
        ...params,
        limit: req.limit,
        offset: req.offset,
      }) as Array<{ record_json: string }>;
      return { records: rows.map((r) => JSON.parse(r.record_json) as CatalogRecordOut), total };
    };
    if (c.geometry === null) return run(c.params);
    return withQueryGeometry(sqlite, c.geometry, (token) => run({ ...c.params, token }));
  };
}

export function registerCatalogSearch(router: Router, ctx: AppContext): void {
  const search = makeCatalogSearch(ctx.sqlite);
  router.read('searchCatalogs', ({ principal, body }) => {
    const { records, total } = search(principal.orgId, body);
    return { catalogs: records, pagination: offsetPage(body.limit, body.offset, total) };
  });
}
