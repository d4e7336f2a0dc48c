/**
 * Catalog search (4.3 POST /v0/catalogs/search) as pure functions: the reference ("oracle")
 * that the server's SQL search and the desktop mirror's SQLite search must match exactly.
 *
 * A record matches when every given filter holds (filters are ANDed; an absent filter holds):
 *
 * - `bbox` [w, s, e, n]: the footprint `details.geometry` intersects the box (exact geometry
 *   test, `geometryIntersects`, not a test of the footprint's bbox). When w > e the box crosses
 *   the antimeridian and is the two boxes [w..180] and [-180..e]. Boundaries count: a
 *   footprint touching the box's edge or corner matches.
 * - `intersects`: the footprint intersects the given geometry (any type, collections included),
 *   with the same closed-set semantics (see `src/geo/intersects.ts`).
 *   For both spatial filters a record whose geometry is null never matches.
 * - `datetime`: `details.properties.datetime`, parsed with `tryParseRfc3339`, lies in the closed
 *   interval (bounds inclusive, `..` open; a single instant means equality at microsecond
 *   precision, whatever the offsets written). A missing or unparseable datetime never matches.
 * - `ids`: record `id` in the list; `item_ids`: `details.id`; `collections`: `details.collection`;
 *   `order_ids` / `order_item_ids`: the record's links (`SearchableRecord.links`), which a
 *   catalog record does not carry itself; a null link never matches. Exact string equality.
 * - `query`: for each key, the value at that path (`./paths.ts`, `readPath`) passes every
 *   operator given. Values are typed first (`searchValue`):
 *     - on timestamp paths (`isTimestampProperty`: datetime, created, updated, start_datetime,
 *       end_datetime, created_at, updated_at) record strings and query values compare as instants;
 *     - elsewhere numbers compare numerically, strings in Unicode code point order (= UTF-8
 *       byte order: SQL must compare with the BINARY collation on a UTF-8 database), booleans
 *       only by eq / neq;
 *     - a value of another type than the query value, or a missing value (absent, null, an
 *       array or object, an unparseable timestamp), fails every operator, neq included, as a
 *       NULL comparison does in SQL.
 *   `gt gte lt lte eq neq` are >, >=, <, <=, =, <>. `eq: [..]` is IN: the value equals one of
 *   the list (list elements of another type simply never equal it). `neq: [..]` is NOT IN,
 *   read as SQL does, "<> every element", so every element must be of the value's type: a
 *   list mixing types never matches.
 *
 * Order: `sort_by` keys in turn, each asc or desc, values typed as above; between types of one
 * key, numbers < strings < false < true (desc reverses this whole order); missing values sort
 * last in both directions. Without `sort_by` (absent or empty) the order is `datetime`
 * descending. Ties always end with record `id` ascending (code point order); records with equal
 * ids keep their input order.
 *
 * Paging: `total` counts every match; `offset` and `limit` then slice the sorted matches.
 *
 * Results are the input record objects themselves (not copies).
 */
import type { Geometry } from '../geometry';
import {
  boundsContain,
  boundsIntersect,
  bboxBounds,
  bboxPolygons,
  geometryBbox,
} from '../geo/bbox';
import { primitivesIntersect } from '../geo/intersects';
import { geometryPrimitives, type Bounds, type GeometryPrimitives } from '../geo/primitives';
import type { CatalogRecord } from '../resources/catalog';
import { tryParseRfc3339 } from '../time/codecs';
import { inRange, parseInstantRange } from '../time/interval';
import { isTimestampProperty } from './paths';
import type { CatalogSearchRequest, QueryOperators, QueryScalar } from './request';
import {
  compareCodePoints,
  compareSearchValues,
  valueReader,
  type SearchValue,
  type ValueReader,
} from './values';

/** The order and order item a catalog record belongs to (task -> order item -> order). */
export interface CatalogLinks {
  readonly orderId: string | null;
  readonly orderItemId: string | null;
}

/** A catalog record as search sees it: the record plus the links its store knows. */
export interface SearchableRecord {
  readonly record: CatalogRecord;
  readonly links: CatalogLinks;
}

export interface CompiledCatalogSearch {
  /** Whether a record passes every filter of the request. */
  matches(rec: SearchableRecord): boolean;
  /** The request's order: < 0 when a comes first, > 0 when b does, 0 only for equal ids. */
  compare(a: SearchableRecord, b: SearchableRecord): number;
}

export interface CatalogSearchResult {
  /** The page: sorted matches from `offset`, at most `limit`. */
  readonly catalogs: CatalogRecord[];
  /** Number of matches before paging. */
  readonly total: number;
}

/** The order used when `sort_by` is absent or empty. */
export const DEFAULT_CATALOG_SORT = [{ field: 'datetime', direction: 'desc' }] as const;

/**
 * Parses everything in the request once (interval, boxes, query geometry, query values, id
 * sets). Per record, `matches` then allocates only to parse timestamps it reads and to
 * decompose footprints that pass the bounds prefilter.
 * Throws a RangeError for values the request schema would have rejected.
 */
export function compileCatalogSearch(req: CatalogSearchRequest): CompiledCatalogSearch {
  const { matches, compare } = compile(req);
  return { matches, compare };
}

/** Filters, sorts and pages records: the whole of 4.3's semantics. */
export function runCatalogSearch(
  records: Iterable<SearchableRecord>,
  req: CatalogSearchRequest,
): CatalogSearchResult {
  const { matches, keys } = compile(req);
  // Read each sort value once per match rather than once per comparison.
  const rows: Array<{ rec: CatalogRecord; values: Array<SearchValue | undefined> }> = [];
  for (const r of records) {
    if (!matches(r)) continue;
    rows.push({ rec: r.record, values: keys.map((k) => k.read(r.record)) });
  }
  rows.sort((a, b) => {
    for (let i = 0; i < keys.length; i++) {
      const c = compareKey(a.values[i], b.values[i], keys[i]!.sign);
      if (c !== 0) return c;
    }
    return compareCodePoints(a.rec.id, b.rec.id);
  });
  const page = rows.slice(req.offset, req.offset + req.limit).map((row) => row.rec);
  return { catalogs: page, total: rows.length };
}

function compile(req: CatalogSearchRequest): CompiledCatalogSearch & { keys: SortKey[] } {
  const tests: Array<(rec: SearchableRecord) => boolean> = [];

  // Cheapest first: set lookups, then the datetime, then query, then geometry.
  const ids = idSet(req.ids);
  if (ids) tests.push((r) => ids.has(r.record.id));
  const itemIds = idSet(req.item_ids);
  if (itemIds) tests.push((r) => itemIds.has(r.record.details.id));
  const collections = idSet(req.collections);
  if (collections) tests.push((r) => hasString(collections, r.record.details.collection));
  const orderIds = idSet(req.order_ids);
  if (orderIds) tests.push((r) => hasString(orderIds, r.links.orderId));
  const orderItemIds = idSet(req.order_item_ids);
  if (orderItemIds) tests.push((r) => hasString(orderItemIds, r.links.orderItemId));

  if (req.datetime !== undefined) {
    const range = parseInstantRange(req.datetime);
    if (!range.ok) throw new RangeError(`datetime: ${range.message}`);
    const read = valueReader('datetime');
    const interval = range.value;
    tests.push((r) => {
      const v = read(r.record);
      return typeof v === 'number' && inRange(v, interval);
    });
  }

  for (const [path, ops] of Object.entries(req.query ?? {})) {
    tests.push(compileCondition(path, ops));
  }

  const spatial = compileSpatial(req);
  if (spatial) tests.push(spatial);

  const keys = compileSort(req.sort_by);
  const compare = (a: SearchableRecord, b: SearchableRecord): number => {
    for (const k of keys) {
      const c = compareKey(k.read(a.record), k.read(b.record), k.sign);
      if (c !== 0) return c;
    }
    return compareCodePoints(a.record.id, b.record.id);
  };

  const matches = (rec: SearchableRecord): boolean => {
    for (const t of tests) if (!t(rec)) return false;
    return true;
  };
  return { matches, compare, keys };
}

// --- ids --------------------------------------------------------------------------------------

function idSet(list: readonly string[] | undefined): Set<string> | null {
  return list === undefined ? null : new Set(list);
}

function hasString(set: Set<string>, v: string | null | undefined): boolean {
  return typeof v === 'string' && set.has(v);
}

// --- query ------------------------------------------------------------------------------------

type ValueTest = (v: SearchValue) => boolean;

function compileCondition(path: string, ops: QueryOperators): (rec: SearchableRecord) => boolean {
  const read = valueReader(path);
  const timestamp = isTimestampProperty(path);
  const checks: ValueTest[] = [];
  for (const [op, raw] of Object.entries(ops) as Array<[string, QueryOperators['eq']]>) {
    if (raw === undefined) continue;
    if (Array.isArray(raw)) {
      const values = raw.map((q) => queryValue(path, op, q, timestamp));
      if (op === 'eq') checks.push(inList(values));
      else if (op === 'neq') checks.push(notInList(values));
      else throw new RangeError(`query.${path}.${op}: only eq and neq take a list`);
    } else {
      checks.push(scalarCheck(path, op, queryValue(path, op, raw, timestamp)));
    }
  }
  return (rec) => {
    const v = read(rec.record);
    if (v === undefined) return false;
    for (const c of checks) if (!c(v)) return false;
    return true;
  };
}

/** A query value typed like record values: instants on timestamp paths. */
function queryValue(path: string, op: string, q: QueryScalar, timestamp: boolean): SearchValue {
  if (!timestamp) return q;
  const r = typeof q === 'string' ? tryParseRfc3339(q) : null;
  if (r === null || !r.ok) {
    throw new RangeError(
      `query.${path}.${op}: ${path} is a timestamp; ${JSON.stringify(q)} is not`,
    );
  }
  return r.value;
}

function scalarCheck(path: string, op: string, q: SearchValue): ValueTest {
  const t = typeof q;
  switch (op) {
    case 'eq':
      return (v) => v === q; // === is false across types
    case 'neq':
      return (v) => typeof v === t && v !== q;
  }
  if (t === 'boolean') throw new RangeError(`query.${path}.${op}: booleans compare only by eq/neq`);
  const cmp = (v: SearchValue) => compareSearchValues(v, q);
  switch (op) {
    case 'gt':
      return (v) => typeof v === t && cmp(v) > 0;
    case 'gte':
      return (v) => typeof v === t && cmp(v) >= 0;
    case 'lt':
      return (v) => typeof v === t && cmp(v) < 0;
    case 'lte':
      return (v) => typeof v === t && cmp(v) <= 0;
  }
  throw new RangeError(`query.${path}: unknown operator ${JSON.stringify(op)}`);
}

/** IN: equal to one element (a Set distinguishes 1 from "1", as typed equality must). */
function inList(values: SearchValue[]): ValueTest {
  const set = new Set(values);
  return (v) => set.has(v);
}

/** NOT IN as "<> every element": each comparison must be between values of one type. */
function notInList(values: SearchValue[]): ValueTest {
  const set = new Set(values);
  const t = typeof values[0];
  if (values.some((q) => typeof q !== t)) return () => false;
  return (v) => typeof v === t && !set.has(v);
}

// --- geometry ---------------------------------------------------------------------------------

function compileSpatial(req: CatalogSearchRequest): ((rec: SearchableRecord) => boolean) | null {
  let query: Geometry;
  let prefilter: Bounds[];
  // For a bbox the prefilter rectangles are the query itself, so a footprint whose bounds lie
  // inside one of them certainly intersects it (it has a position there): no exact test needed.
  let rectangles = false;
  if (req.bbox !== undefined) {
    query = { type: 'GeometryCollection', geometries: bboxPolygons(req.bbox) };
    prefilter = bboxBounds(req.bbox);
    rectangles = true;
  } else if (req.intersects !== undefined) {
    query = req.intersects;
    const b = geometryBbox(query);
    prefilter = b === null ? [] : [b];
  } else {
    return null;
  }
  const prims: GeometryPrimitives = geometryPrimitives(query);
  return (rec) => {
    const g = rec.record.details.geometry;
    if (g === null || g === undefined) return false;
    // Cheap bounds test first: most footprints are far from the query.
    const b = geometryBbox(g);
    if (b === null) return false;
    let near = false;
    for (const p of prefilter) {
      if (rectangles && boundsContain(p, b)) return true;
      if (boundsIntersect(b, p)) near = true;
    }
    return near && primitivesIntersect(geometryPrimitives(g), prims);
  };
}

// --- order ------------------------------------------------------------------------------------

interface SortKey {
  readonly read: ValueReader;
  /** 1 ascending, -1 descending. */
  readonly sign: 1 | -1;
}

function compileSort(sortBy: CatalogSearchRequest['sort_by']): SortKey[] {
  const list = sortBy !== undefined && sortBy.length > 0 ? sortBy : DEFAULT_CATALOG_SORT;
  return list.map((s) => ({ read: valueReader(s.field), sign: s.direction === 'desc' ? -1 : 1 }));
}

/** Missing values last whatever the direction; otherwise the typed order, signed. */
function compareKey(a: SearchValue | undefined, b: SearchValue | undefined, sign: 1 | -1): number {
  if (a === undefined) return b === undefined ? 0 : 1;
  if (b === undefined) return -1;
  return sign * compareSearchValues(a, b);
}
