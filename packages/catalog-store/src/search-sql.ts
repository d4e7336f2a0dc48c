/**
 * Catalog search (4.3) compiled to one SQL statement pair (count + page) with the exact
 * semantics of the domain reference `runCatalogSearch` (@eo/domain, search/evaluate.ts):
 *
 * - filters: org scope; id lists through `json_each` of one JSON parameter (so the statement
 *   text does not depend on list lengths); `datetime` on the indexed `datetime_us` column
 *   (the same tryParseRfc3339 instant the domain compares, NULL when missing);
 * - `query` values typed as the domain types them: a JSON number, string or boolean is that
 *   type (checked with `json_type`), anything else is missing; comparisons only between equal
 *   types, strings with the BINARY collation (= code point order); timestamp paths through
 *   `eo_rfc3339` (the domain's parser); `eo:cloud_cover`, `view:off_nadir`, `gsd` read their
 *   indexed numeric columns when compared with numbers;
 * - spatial: the `catalog_rtree` R*Tree drives (one box, or two for a box across the
 *   antimeridian), then `eo_intersects` tests the real footprint;
 * - order: each sort key as (missing last, type rank, value), then `id` ascending; the default
 *   `datetime desc, id asc` matches the (org_id, datetime_us DESC, id) index, so a page costs
 *   an index walk rather than a sort.
 */
import {
  bboxBounds,
  bboxPolygons,
  geometryBbox,
  isTimestampProperty,
  parseInstantRange,
  resolvePath,
  tryParseRfc3339,
  type CatalogSearchRequest,
  type Geometry,
  type QueryOperators,
  type QueryScalar,
} from '@eo/domain';
import { JSON_LAYOUT, type CatalogLayout } from './layout';

export type Params = Record<string, unknown>;

/** How one property path reads in SQL. */
interface PathSql {
  /** The value when it is a number, else NULL. */
  readonly num: string;
  /** The value when it is a string, else NULL. */
  readonly str: string;
  /** `json_type`-style type name ('true'/'false' matter), NULL when missing; or null if never boolean. */
  readonly type: string | null;
  /** Sort terms (missing last, type rank, value), without direction on the last two. */
  readonly rank: string;
  readonly value: string;
}

/** A timestamp path reads as an instant (µs) or NULL. */
interface InstantSql {
  readonly instant: string;
}

export interface CompiledSql {
  /** FROM clause (R*Tree join when spatial). */
  readonly from: string;
  readonly where: string;
  readonly orderBy: string;
  readonly params: Params;
  /** The query geometry to register for `eo_intersects`, when spatial. */
  readonly geometry: Geometry | null;
  /** True when a spatial filter can match nothing (empty geometry). */
  readonly empty: boolean;
  /** True when nothing but the organisation narrows it: every record of the organisation. */
  readonly everyRecord: boolean;
  /**
   * The where clause with its datetime range written so that no index serves it, or null. Set
   * on a store of one organisation (the mirror) for a datetime range with no other indexed
   * filter and a sort no index gives (not by acquisition time): walking the datetime index then
   * looks up every row in the range (~4 µs each), scanning the table reads every row (~0.5 µs
   * each), so past about an eighth of the rows the scan is quicker. SQLite cannot tell a range
   * of a week from one of years (no statistics on the range); the runner can, from the count it
   * makes anyway (`search.ts`).
   */
  readonly scanWhere: string | null;
}

/** Keys SQLite's JSON path syntax can quote (`."key"`): no quote, backslash or control char. */
function isSafeKey(key: string): boolean {
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

class Builder {
  readonly params: Params = {};
  private n = 0;
  constructor(readonly layout: CatalogLayout) {}
  param(value: unknown): string {
    const name = `p${this.n++}`;
    this.params[name] = value;
    return `@${name}`;
  }
}

/** The JSON value at a path of the record, as (type expression, value expression). */
function jsonAt(b: Builder, parent: string, key: string | null): { t: string; v: string } {
  const record = b.layout.recordSql;
  if (key === null) {
    const p = b.param(parent);
    return { t: `json_type(${record}, ${p})`, v: `json_extract(${record}, ${p})` };
  }
  if (isSafeKey(key)) {
    const p = b.param(`${parent}."${key}"`);
    return { t: `json_type(${record}, ${p})`, v: `json_extract(${record}, ${p})` };
  }
  const pp = b.param(parent);
  const pk = b.param(key);
  const each = `FROM json_each(${record}, ${pp}) WHERE key = ${pk}`;
  return { t: `(SELECT type ${each})`, v: `(SELECT value ${each})` };
}

function genericPath(j: { t: string; v: string }): PathSql {
  return {
    num: `(CASE WHEN ${j.t} IN ('integer', 'real') THEN ${j.v} END)`,
    str: `(CASE WHEN ${j.t} = 'text' THEN ${j.v} END)`,
    type: j.t,
    rank: `(CASE ${j.t} WHEN 'integer' THEN 0 WHEN 'real' THEN 0 WHEN 'text' THEN 1 WHEN 'false' THEN 2 WHEN 'true' THEN 2 END)`,
    // NULL for missing values (null, arrays, objects), so they tie among themselves.
    value: `(CASE WHEN ${j.t} IN ('integer', 'real', 'text', 'true', 'false') THEN ${j.v} END)`,
  };
}

function stringColumn(col: string): PathSql {
  return {
    num: 'NULL',
    str: col,
    type: null,
    rank: `(CASE WHEN ${col} IS NOT NULL THEN 1 END)`,
    value: col,
  };
}

/** The SQL reading of a `query` / `sort_by` path (rules in the domain's search/paths.ts). */
function pathSql(b: Builder, path: string): PathSql | InstantSql {
  const r = resolvePath(path);
  if (isTimestampProperty(path)) {
    if (r.kind === 'property' && r.key === 'datetime') return { instant: 'c.datetime_us' };
    const j =
      r.kind === 'property'
        ? jsonAt(b, '$.details.properties', r.key)
        : jsonAt(b, `$.${r.field}`, null);
    return { instant: `eo_rfc3339(${j.v})` };
  }
  if (r.kind === 'record') {
    switch (r.field) {
      case 'id':
        return stringColumn('c.id');
      case 'item_id':
        return stringColumn('c.item_id');
      case 'collection':
        return stringColumn('c.collection');
      default:
        return genericPath(jsonAt(b, `$.${r.field}`, null));
    }
  }
  const generic = genericPath(jsonAt(b, '$.details.properties', r.key));
  const column = b.layout.numberColumns.get(r.key);
  if (column) {
    // The column holds the value exactly when it is a number; other types stay in the JSON.
    return {
      ...generic,
      num: column,
      rank: `(CASE WHEN ${column} IS NOT NULL THEN 0 ELSE ${generic.rank} END)`,
      value: `coalesce(${column}, ${generic.value})`,
    };
  }
  const textColumn = b.layout.textColumns.get(r.key);
  if (textColumn) {
    // The column holds the value exactly when it is a string; other types stay in the JSON.
    return {
      ...generic,
      str: textColumn,
      rank: `(CASE WHEN ${textColumn} IS NOT NULL THEN 1 ELSE ${generic.rank} END)`,
      value: `coalesce(${textColumn}, ${generic.value})`,
    };
  }
  return generic;
}

const SQL_OPS: ReadonlyMap<string, string> = new Map([
  ['eq', '='],
  ['neq', '<>'],
  ['gt', '>'],
  ['gte', '>='],
  ['lt', '<'],
  ['lte', '<='],
]);

/** The SQL operator of a query operator name; throws for any other name. */
function sqlOp(op: string): string {
  const sql = SQL_OPS.get(op);
  if (sql === undefined) throw new RangeError(`unknown query operator ${JSON.stringify(op)}`);
  return sql;
}

function instantOf(path: string, q: QueryScalar): number {
  const r = typeof q === 'string' ? tryParseRfc3339(q) : null;
  if (r === null || !r.ok)
    throw new RangeError(`query.${path}: ${JSON.stringify(q)} is not a timestamp`);
  return r.value;
}

function booleanTest(p: PathSql, value: boolean): string {
  return p.type === null ? '0' : `(${p.type} = '${value ? 'true' : 'false'}')`;
}

/** One scalar comparison, typed: a value of another type never passes. */
function scalarCondition(b: Builder, p: PathSql, op: string, q: QueryScalar): string {
  if (typeof q === 'boolean') {
    if (op === 'eq') return booleanTest(p, q);
    if (op === 'neq') return booleanTest(p, !q);
    throw new RangeError(`booleans compare only by eq/neq`);
  }
  const expr = typeof q === 'number' ? p.num : p.str;
  return `(${expr} ${sqlOp(op)} ${b.param(q)})`;
}

function listCondition(b: Builder, p: PathSql, op: 'eq' | 'neq', list: QueryScalar[]): string {
  const nums = list.filter((q): q is number => typeof q === 'number');
  const strs = list.filter((q): q is string => typeof q === 'string');
  const bools = list.filter((q): q is boolean => typeof q === 'boolean');
  if (op === 'eq') {
    const parts: string[] = [];
    if (nums.length)
      parts.push(`${p.num} IN (SELECT value FROM json_each(${b.param(JSON.stringify(nums))}))`);
    if (strs.length)
      parts.push(`${p.str} IN (SELECT value FROM json_each(${b.param(JSON.stringify(strs))}))`);
    for (const v of new Set(bools)) parts.push(booleanTest(p, v));
    return parts.length ? `(${parts.join(' OR ')})` : '0';
  }
  // NOT IN as "<> every element": only meaningful when every element has the value's type.
  const kinds = [nums, strs, bools].filter((l) => l.length > 0).length;
  if (kinds !== 1) return '0';
  if (bools.length) {
    const set = new Set(bools);
    return set.size === 2 ? '0' : booleanTest(p, !bools[0]);
  }
  const expr = nums.length ? p.num : p.str;
  const values = nums.length ? nums : strs;
  return `(${expr} NOT IN (SELECT value FROM json_each(${b.param(JSON.stringify(values))})))`;
}

function instantCondition(
  b: Builder,
  path: string,
  s: InstantSql,
  op: string,
  raw: QueryScalar | QueryScalar[],
): string {
  if (Array.isArray(raw)) {
    const list = JSON.stringify(raw.map((q) => instantOf(path, q)));
    const inList = `${s.instant} IN (SELECT value FROM json_each(${b.param(list)}))`;
    if (op === 'eq') return `(${inList})`;
    if (op === 'neq')
      return `(${s.instant} NOT IN (SELECT value FROM json_each(${b.param(list)})))`;
    throw new RangeError(`query.${path}.${op}: only eq and neq take a list`);
  }
  return `(${s.instant} ${sqlOp(op)} ${b.param(instantOf(path, raw))})`;
}

function queryCondition(b: Builder, path: string, ops: QueryOperators): string {
  const s = pathSql(b, path);
  const parts: string[] = [];
  for (const [op, raw] of Object.entries(ops) as Array<[string, QueryOperators['eq']]>) {
    if (raw === undefined) continue;
    if ('instant' in s) {
      parts.push(instantCondition(b, path, s, op, raw));
    } else if (Array.isArray(raw)) {
      if (op !== 'eq' && op !== 'neq')
        throw new RangeError(`query.${path}.${op}: only eq and neq take a list`);
      parts.push(listCondition(b, s, op, raw));
    } else {
      parts.push(scalarCondition(b, s, op, raw));
    }
  }
  return parts.length ? parts.join(' AND ') : '1';
}

function orderTerms(b: Builder, sortBy: CatalogSearchRequest['sort_by']): string {
  const keys =
    sortBy && sortBy.length > 0 ? sortBy : [{ field: 'datetime', direction: 'desc' as const }];
  const terms: string[] = [];
  for (const k of keys) {
    const dir = k.direction === 'desc' ? 'DESC' : 'ASC';
    const s = pathSql(b, k.field);
    if ('instant' in s) {
      // Missing last either way. NULL sorts first in SQLite, so DESC puts it last already; ASC
      // says NULLS LAST, which SQLite still reads from the (datetime DESC) index walked backwards,
      // sorting only the ties on the instant by id. A leading `(instant IS NULL)` term sorted
      // every match instead: oldest first on 100,000 records took ~0.7 s a page.
      terms.push(dir === 'DESC' ? `${s.instant} DESC` : `${s.instant} ASC NULLS LAST`);
    } else {
      terms.push(`(${s.rank} IS NULL)`, `${s.rank} ${dir}`, `${s.value} ${dir}`);
    }
  }
  terms.push('c.id ASC');
  return terms.join(', ');
}

const RTREE_BOX = (alias: string, b: Builder, box: readonly number[]) =>
  `${alias}.min_lon <= ${b.param(box[2])} AND ${alias}.max_lon >= ${b.param(box[0])} AND ` +
  `${alias}.min_lat <= ${b.param(box[3])} AND ${alias}.max_lat >= ${b.param(box[1])}`;

export function compileCatalogSql(
  orgId: string,
  req: CatalogSearchRequest,
  layout: CatalogLayout = JSON_LAYOUT,
): CompiledSql {
  const b = new Builder(layout);
  const org = `c.org_id = ${b.param(orgId)}`;
  // A store of one organisation (the mirror): the term holds for every row, and SQLite is told
  // so. Taken for a selective term, it made SQLite walk the (org, datetime) index for a sort no
  // index gives, with a table lookup per row: sorting 100,000 records by cloud cover took ~0.45 s a
  // page where a scan takes ~55 ms. Told, SQLite weighs the other terms: a datetime range still
  // walks the index (the runner scans a wide one: `scanWhere`), newest first still reads it in
  // order, and a sort on its own scans.
  const where: string[] = [layout.oneOrganisation ? `likelihood(${org}, 1.0)` : org];
  let indexedFilter = false;
  const idFilter = (col: string, list: readonly string[] | undefined) => {
    if (list === undefined) return;
    indexedFilter = true;
    where.push(`${col} IN (SELECT value FROM json_each(${b.param(JSON.stringify(list))}))`);
  };
  idFilter('c.id', req.ids);
  idFilter('c.item_id', req.item_ids);
  idFilter('c.collection', req.collections);
  idFilter('c.order_id', req.order_ids);
  idFilter('c.order_item_id', req.order_item_ids);

  const datetimeTerms: string[] = [];
  if (req.datetime !== undefined) {
    const range = parseInstantRange(req.datetime);
    if (!range.ok) throw new RangeError(`datetime: ${range.message}`);
    if (range.value.start !== null)
      datetimeTerms.push(`c.datetime_us >= ${b.param(range.value.start)}`);
    if (range.value.end !== null)
      datetimeTerms.push(`c.datetime_us <= ${b.param(range.value.end)}`);
    where.push(...datetimeTerms);
  }
  for (const [path, ops] of Object.entries(req.query ?? {}))
    where.push(queryCondition(b, path, ops));

  let from = 'catalog_records c';
  let geometry: Geometry | null = null;
  let empty = false;
  let boxes: number[][] = [];
  if (req.bbox !== undefined) {
    geometry = { type: 'GeometryCollection', geometries: bboxPolygons(req.bbox) };
    boxes = bboxBounds(req.bbox);
  } else if (req.intersects !== undefined) {
    geometry = req.intersects;
    const box = geometryBbox(geometry);
    if (box === null) empty = true;
    else boxes = [box];
  }
  if (geometry !== null && !empty) {
    const candidates =
      boxes.length === 1
        ? null
        : boxes
            .map((box) => `SELECT seq FROM catalog_rtree q WHERE ${RTREE_BOX('q', b, box)}`)
            .join(' UNION ');
    if (candidates === null) {
      from = 'catalog_rtree r CROSS JOIN catalog_records c ON c.seq = r.seq';
      where.unshift(RTREE_BOX('r', b, boxes[0]!));
    } else {
      from = `(${candidates}) r CROSS JOIN catalog_records c ON c.seq = r.seq`;
    }
    // Last, so the cheap column tests run first and the exact test only on survivors.
    const exact = `eo_intersects(@token, ${layout.geometrySql})`;
    // A record whose bounds lie strictly inside one of a bbox's boxes has its geometry there
    // (the bounds are its extreme coordinates, those the exact test reads), and the exact test
    // says so: that is decided from the columns, without a call into JS that reads the
    // footprint. A map view of a continent holds thousands of such records; the whole world on
    // 100,000 records took 1.6 s a page, 0.51 s this way.
    const inside =
      req.bbox === undefined
        ? []
        : boxes.map(
            ([w, s, e, n]) =>
              `(c.min_lon > ${b.param(w)} AND c.max_lon < ${b.param(e)} AND ` +
              `c.min_lat > ${b.param(s)} AND c.max_lat < ${b.param(n)})`,
          );
    where.push(inside.length === 0 ? exact : `(${[...inside, exact].join(' OR ')})`);
  }
  const orderBy = orderTerms(b, req.sort_by);
  const scannable =
    layout.oneOrganisation &&
    datetimeTerms.length > 0 &&
    !indexedFilter &&
    geometry === null &&
    !orderBy.startsWith('c.datetime_us ');
  return {
    from,
    where: where.join(' AND '),
    orderBy,
    params: b.params,
    geometry,
    empty,
    everyRecord: where.length === 1 && geometry === null,
    // Unary plus: the same value, but no index answers the term.
    scanWhere: scannable
      ? where.map((t) => (datetimeTerms.includes(t) ? `+${t}` : t)).join(' AND ')
      : null,
  };
}

/**
 * The statements of a compiled search: count, page, and page with the total of all matches on
 * every row (one pass, for searches that sort every match anyway), and the page that scans its
 * datetime range (`CompiledSql.scanWhere`; null when there is none). Pages bind @limit, @offset
 * and select `columns` (of row `c`; default the record's JSON text).
 */
export function catalogSearchStatements(
  c: CompiledSql,
  columns = 'c.record_json',
): {
  count: string;
  page: string;
  pageWithTotal: string;
  scanningPage: string | null;
} {
  const tail = (where: string) =>
    `FROM ${c.from} WHERE ${where} ORDER BY ${c.orderBy} LIMIT @limit OFFSET @offset`;
  return {
    count: `SELECT count(*) AS n FROM ${c.from} WHERE ${c.where}`,
    page: `SELECT ${columns} ${tail(c.where)}`,
    pageWithTotal: `SELECT ${columns}, count(*) OVER () AS total ${tail(c.where)}`,
    scanningPage: c.scanWhere === null ? null : `SELECT ${columns} ${tail(c.scanWhere)}`,
  };
}
