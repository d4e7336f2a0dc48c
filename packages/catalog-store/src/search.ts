/**
 * Catalog search executed: the compiled statements (`search-sql.ts`) run on one connection,
 * with `eo_intersects` and `eo_rfc3339` installed. Records are stored as the JSON sent on the
 * wire, so a page is those texts: no parse and re-serialise per record.
 *
 * A spatial search sorts its matches anyway, so it counts them in the same pass
 * (`count(*) OVER ()`); other searches walk an index for the page and count separately.
 * A request the SQL cannot express throws a RangeError (the request schema rejects these
 * first; callers turn it into their own client error).
 */
import { tryParseRfc3339, type CatalogSearchRequest } from '@eo/domain';
import type Database from 'better-sqlite3';
import { catalogSearchStatements, compileCatalogSql } from './search-sql';
import { installSpatialFunctions, withQueryGeometry } from './spatial-sql';

/** `eo_rfc3339(text)`: the domain's RFC 3339 parser in SQL (instant in µs, or NULL). */
export function installTimeFunction(sqlite: Database.Database): void {
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

export type CatalogSearch = (orgId: string, req: CatalogSearchRequest) => CatalogSearchPage;

export function makeCatalogSearch(sqlite: Database.Database): CatalogSearch {
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

  return (orgId, req) => {
    const c = compileCatalogSql(orgId, req);
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
