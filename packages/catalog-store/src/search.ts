/**
 * Catalog search executed: the compiled statements (`search-sql.ts`) run on one connection,
 * with `eo_intersects`, `eo_rfc3339` (and, for the compact layout, `eo_catalog_record`)
 * installed.
 *
 * - `makeCatalogSearch`: a page of whole records as their JSON texts. The JSON layout selects
 *   the stored texts (no parse and re-serialise per record); the compact layout sorts row
 *   numbers only and decodes just the page's records afterwards.
 * - `makeCatalogListSearch`: a page of result-list rows read from columns alone (id,
 *   collection, acquisition instant, cloud, off-nadir, gsd, platform, footprint bounds): no
 *   record is read, decoded or parsed.
 *
 * A spatial search sorts its matches anyway, so it counts them in the same pass
 * (`count(*) OVER ()`); other searches walk an index for the page and count separately.
 * A request the SQL cannot express throws a RangeError (the request schema rejects these
 * first; callers turn it into their own client error).
 */
import { tryParseRfc3339, type CatalogSearchRequest } from '@eo/domain';
import type Database from 'better-sqlite3';
import { keptAnswers } from './kept-answers';
import { JSON_LAYOUT, type CatalogLayout } from './layout';
import { installRecordFunction, makeCatalogRecordReader } from './records';
import { catalogSearchStatements, compileCatalogSql } from './search-sql';
import { installSpatialFunctions, withQueryGeometry } from './spatial-sql';
import type { SqlRow } from './sql-row';
import type { compactCatalogRecords } from './table';

/** `eo_rfc3339(text)`: the domain's RFC 3339 parser in SQL (instant in µs, or NULL). */
export function installTimeFunction(sqlite: Database.Database): void {
  sqlite.function('eo_rfc3339', { deterministic: true }, (v: unknown) => {
    if (typeof v !== 'string') return null;
    const r = tryParseRfc3339(v);
    return r.ok ? r.value : null;
  });
}

/** Every SQL function the search SQL of `layout` calls, on this connection. */
export function installSearchFunctions(
  sqlite: Database.Database,
  layout: CatalogLayout = JSON_LAYOUT,
): void {
  installSpatialFunctions(sqlite);
  installTimeFunction(sqlite);
  if (layout !== JSON_LAYOUT) installRecordFunction(sqlite);
}

export interface CatalogSearchPage {
  /** The page's records as stored JSON texts. */
  readonly json: string[];
  readonly total: number;
}

export type CatalogSearch = (orgId: string, req: CatalogSearchRequest) => CatalogSearchPage;

/** A result-list row, from the indexed columns only. */
export interface CatalogListRow {
  readonly id: string;
  readonly collection: string | null;
  /** `details.properties.datetime` as indexed (µs); null when missing or unreadable. */
  readonly datetimeUs: number | null;
  readonly cloudCover: number | null;
  readonly offNadir: number | null;
  readonly gsd: number | null;
  /** `details.properties.platform` when it is a string. */
  readonly platform: string | null;
  /** The footprint's bounds `[west, south, east, north]`; null without a readable footprint. */
  readonly bounds: [number, number, number, number] | null;
}

export interface CatalogListPage {
  readonly rows: CatalogListRow[];
  readonly total: number;
}

export type CatalogListSearch = (orgId: string, req: CatalogSearchRequest) => CatalogListPage;

/** Searches whose totals are kept at most, per connection. */
const COUNTS_KEPT = 64;
/** A range matching more than 1/SCAN_SHARE of the rows is scanned (`CompiledSql.scanWhere`). */
const SCAN_SHARE = 8;

/**
 * Runs a compiled search for one page of `columns`: its rows as arrays of the columns in
 * their order (raw: no object per row, which a result list of 100 rows paid ~0.1 ms for at
 * 1,000,000 records), and the total of matches.
 */
function makePageRunner(sqlite: Database.Database, layout: CatalogLayout) {
  installSearchFunctions(sqlite, layout);
  const statements = new Map<string, Database.Statement>();
  // Paging through a list (a sync's hundred pages, the desktop's result list) counts its
  // matches once, not on every page (2.4 of 8 ms a 1,000-record page on 100,000 records).
  const totals = keptAnswers<number>(sqlite, COUNTS_KEPT);
  // How many rows the table holds, about (row numbers are not reused, so at least as many):
  // two ends of the table's b-tree, not a count.
  const span = sqlite
    .prepare('SELECT coalesce(max(seq) - min(seq) + 1, 0) FROM catalog_records')
    .pluck();
  const rowSpan = () => span.get() as number;
  const prepare = (sql: string, mode: 'raw' | 'pluck') => {
    let s = statements.get(sql);
    if (!s) {
      if (statements.size >= 500) statements.clear();
      s = sqlite.prepare(sql);
      statements.set(sql, mode === 'raw' ? s.raw(true) : s.pluck(true));
    }
    return s;
  };
  return (
    orgId: string,
    req: CatalogSearchRequest,
    columns: string,
  ): { rows: unknown[][]; total: number } => {
    const c = compileCatalogSql(orgId, req, layout);
    if (c.empty) return { rows: [], total: 0 };
    const sql = catalogSearchStatements(c, columns);
    const count = (params: Record<string, unknown>) =>
      totals.get(
        `${sql.count}\u0000${JSON.stringify(params)}`,
        () => prepare(sql.count, 'pluck').get(params) as number,
      );
    const page = { limit: req.limit, offset: req.offset };
    if (c.geometry === null) {
      const total = count(c.params);
      if (total <= req.offset) return { rows: [], total };
      // A datetime range holding more than an eighth of the rows is scanned, not walked from
      // the index (why and figures: `CompiledSql.scanWhere`).
      const pageSql =
        sql.scanningPage !== null && total * SCAN_SHARE > rowSpan() ? sql.scanningPage : sql.page;
      return { rows: prepare(pageSql, 'raw').all({ ...c.params, ...page }) as unknown[][], total };
    }
    return withQueryGeometry(sqlite, c.geometry, (token) => {
      const params = { ...c.params, token };
      // Each row ends with the total (`count(*) OVER ()`), after the columns asked for.
      const rows = prepare(sql.pageWithTotal, 'raw').all({ ...params, ...page }) as unknown[][];
      // An empty page carries no total: count (only when paging past the end).
      const total =
        rows.length > 0 ? (rows[0]!.at(-1) as number) : req.offset > 0 ? count(params) : 0;
      return { rows, total };
    });
  };
}

export function makeCatalogSearch(
  sqlite: Database.Database,
  layout: CatalogLayout = JSON_LAYOUT,
): CatalogSearch {
  const run = makePageRunner(sqlite, layout);
  if (layout === JSON_LAYOUT) {
    return (orgId, req) => {
      const { rows, total } = run(orgId, req, 'c.record_json');
      return { json: rows.map((r) => r[0] as string), total };
    };
  }
  // Packed records: the sort carries row numbers only; the page's records are decoded after.
  const records = makeCatalogRecordReader(sqlite, layout);
  return (orgId, req) => {
    const { rows, total } = run(orgId, req, 'c.seq');
    return { json: records.bySeq(rows.map((r) => r[0] as number)), total };
  };
}

type Compact = SqlRow<typeof compactCatalogRecords>;
/** A result-list row as the list's statement reads it: its columns, in `columns` order. */
type ListRow = [
  Compact['id'],
  Compact['collection'],
  Compact['datetime_us'],
  Compact['cloud_cover'],
  Compact['off_nadir'],
  Compact['gsd'],
  Compact['platform'],
  Compact['min_lon'],
  Compact['min_lat'],
  Compact['max_lon'],
  Compact['max_lat'],
];

export function makeCatalogListSearch(
  sqlite: Database.Database,
  layout: CatalogLayout = JSON_LAYOUT,
): CatalogListSearch {
  const run = makePageRunner(sqlite, layout);
  const platform =
    layout.textColumns.get('platform') ??
    `(CASE WHEN json_type(${layout.recordSql}, '$.details.properties.platform') = 'text'
       THEN json_extract(${layout.recordSql}, '$.details.properties.platform') END)`;
  const columns = `c.id, c.collection, c.datetime_us, c.cloud_cover, c.off_nadir, c.gsd,
    ${platform} AS platform, c.min_lon, c.min_lat, c.max_lon, c.max_lat`;
  return (orgId, req) => {
    const page = run(orgId, req, columns);
    return {
      total: page.total,
      rows: (page.rows as unknown[] as ListRow[]).map((r) => ({
        id: r[0],
        collection: r[1],
        datetimeUs: r[2],
        cloudCover: r[3],
        offNadir: r[4],
        gsd: r[5],
        platform: r[6],
        bounds:
          r[7] === null || r[8] === null || r[9] === null || r[10] === null
            ? null
            : [r[7], r[8], r[9], r[10]],
      })),
    };
  };
}
