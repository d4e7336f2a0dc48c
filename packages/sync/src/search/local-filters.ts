/**
 * Local filters over mirrored orders, order items, AOIs, AOI assets and indices: indexed columns
 * narrow, the stored JSON is returned. Text search is a case-insensitive substring of the name.
 */
import type Database from 'better-sqlite3';

export interface TimeRange {
  /** Inclusive bounds in µs; either may be omitted. */
  readonly fromUs?: number;
  readonly toUs?: number;
}

export interface OrderFilter {
  readonly ids?: readonly string[];
  readonly status?: readonly string[];
  readonly userId?: string;
  readonly created?: TimeRange;
}

/** Inclusive bounds; either may be omitted. */
export interface NumberRange {
  readonly min?: number;
  readonly max?: number;
}

export interface OrderItemFilter {
  readonly status?: readonly string[];
  readonly type?: readonly string[];
  readonly orderId?: string;
  /** Items of any of these orders. */
  readonly orderIds?: readonly string[];
  /** The item's `area` in km² (the service's unit); items without an area never match. */
  readonly areaKm2?: NumberRange;
  readonly projectId?: string;
  readonly created?: TimeRange;
  readonly text?: string;
}

export interface AoiFilter {
  readonly status?: readonly string[];
  readonly projectId?: string;
  readonly created?: TimeRange;
  readonly text?: string;
}

export interface AssetFilter {
  readonly aoiId: string;
}

export interface IndexFilter {
  readonly type?: string;
  readonly satelliteId?: string;
}

class Where {
  readonly parts: string[] = [];
  readonly params: Record<string, unknown> = {};
  private n = 0;
  private p(v: unknown): string {
    const name = `p${this.n++}`;
    this.params[name] = v;
    return `@${name}`;
  }
  inList(col: string, list: readonly string[] | undefined) {
    if (list !== undefined)
      this.parts.push(`${col} IN (SELECT value FROM json_each(${this.p(JSON.stringify(list))}))`);
  }
  eq(col: string, v: string | undefined) {
    if (v !== undefined) this.parts.push(`${col} = ${this.p(v)}`);
  }
  range(col: string, r: TimeRange | undefined) {
    if (r?.fromUs !== undefined) this.parts.push(`${col} >= ${this.p(r.fromUs)}`);
    if (r?.toUs !== undefined) this.parts.push(`${col} <= ${this.p(r.toUs)}`);
  }
  numberRange(expr: string, r: NumberRange | undefined) {
    if (r?.min !== undefined) this.parts.push(`${expr} >= ${this.p(r.min)}`);
    if (r?.max !== undefined) this.parts.push(`${expr} <= ${this.p(r.max)}`);
  }
  text(col: string, t: string | undefined) {
    if (t !== undefined && t !== '')
      this.parts.push(`instr(lower(coalesce(${col}, '')), lower(${this.p(t)})) > 0`);
  }
  sql(): string {
    return this.parts.length ? `WHERE ${this.parts.join(' AND ')}` : '';
  }
}

/** A filter's statement: what runs, and what an EXPLAIN QUERY PLAN test looks at. */
export interface FilterQuery {
  readonly sql: string;
  readonly params: Record<string, unknown>;
}

function query(table: string, w: Where, order: string): FilterQuery {
  return { sql: `SELECT json FROM ${table} ${w.sql()} ORDER BY ${order}`, params: w.params };
}

function run<T>(sqlite: Database.Database, q: FilterQuery): T[] {
  const rows = sqlite.prepare(q.sql).all(q.params) as Array<{ json: string }>;
  return rows.map((r) => JSON.parse(r.json) as T);
}

/** Newest first, then id. */
export function ordersQuery(f: OrderFilter = {}): FilterQuery {
  const w = new Where();
  w.inList('id', f.ids);
  w.inList('status', f.status);
  w.eq('user_id', f.userId);
  w.range('created_at_us', f.created);
  return query('mirror_orders', w, 'created_at_us DESC, id');
}

export function orderItemsQuery(f: OrderItemFilter = {}): FilterQuery {
  const w = new Where();
  w.inList('status', f.status);
  w.inList('type', f.type);
  w.eq('order_id', f.orderId);
  w.inList('order_id', f.orderIds);
  w.eq('project_id', f.projectId);
  w.range('created_at_us', f.created);
  // The area is not a column: a cheap test on the rows the indexed columns left.
  w.numberRange("json_extract(json, '$.area')", f.areaKm2);
  w.text('name', f.text);
  return query('mirror_order_items', w, 'created_at_us DESC, id');
}

export function aoisQuery(f: AoiFilter = {}): FilterQuery {
  const w = new Where();
  w.inList('status', f.status);
  w.eq('project_id', f.projectId);
  w.range('created_at_us', f.created);
  w.text('name', f.text);
  return query('mirror_aois', w, 'created_at_us DESC, aoi_id');
}

/** Assets of one AOI, oldest first (the service's order), then id. */
export function assetsQuery(f: AssetFilter): FilterQuery {
  const w = new Where();
  w.eq('aoi_id', f.aoiId);
  return query('mirror_assets', w, 'created_at_us, id');
}

/** By name (case-insensitive), then id. */
export function indicesQuery(f: IndexFilter = {}): FilterQuery {
  const w = new Where();
  w.eq('type', f.type);
  w.eq('satellite_id', f.satelliteId);
  return query('mirror_indices', w, 'lower(name), id');
}

export function filterOrders<T = Record<string, unknown>>(
  sqlite: Database.Database,
  f: OrderFilter = {},
): T[] {
  return run<T>(sqlite, ordersQuery(f));
}

export function filterOrderItems<T = Record<string, unknown>>(
  sqlite: Database.Database,
  f: OrderItemFilter = {},
): T[] {
  return run<T>(sqlite, orderItemsQuery(f));
}

export function filterAois<T = Record<string, unknown>>(
  sqlite: Database.Database,
  f: AoiFilter = {},
): T[] {
  return run<T>(sqlite, aoisQuery(f));
}

export function filterAssets<T = Record<string, unknown>>(
  sqlite: Database.Database,
  f: AssetFilter,
): T[] {
  return run<T>(sqlite, assetsQuery(f));
}

export function filterIndices<T = Record<string, unknown>>(
  sqlite: Database.Database,
  f: IndexFilter = {},
): T[] {
  return run<T>(sqlite, indicesQuery(f));
}
