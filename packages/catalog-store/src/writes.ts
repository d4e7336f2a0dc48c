/**
 * Writes of catalog records and their R*Tree entries. The service inserts records as orders
 * are fulfilled; the mirror upserts what a sync pass fetched and deletes what a complete pass
 * no longer saw. Every writer keeps `catalog_rtree` in step with `catalog_records`.
 */
import type { CatalogRecord, Geometry } from '@eo/domain';
import { geometryBbox, isoTimestamp, tryParseRfc3339 } from '@eo/domain';
import type Database from 'better-sqlite3';
import type { z } from 'zod';

export type CatalogRecordOut = z.input<typeof CatalogRecord>;

/** The links search filters on that the record itself may not carry (org scope, order ids). */
export interface CatalogLinks {
  readonly orgId: string;
  readonly orderId: string | null;
  readonly orderItemId: string | null;
}

const COLUMNS = `id, org_id, task_id, order_item_id, order_id, item_id, collection, datetime_us,
  cloud_cover, off_nadir, gsd, min_lon, min_lat, max_lon, max_lat, created_at_us, updated_at_us, record_json`;
const PLACEHOLDERS = COLUMNS.split(',')
  .map(() => '?')
  .join(', ');

type Bounds = readonly [number, number, number, number];

/** The indexed column values of a record (in `COLUMNS` order) and its footprint bounds. */
function recordRow(
  record: CatalogRecordOut,
  links: CatalogLinks,
): { row: unknown[]; bounds: Bounds | null } {
  const p = record.details.properties;
  const dt = typeof p.datetime === 'string' ? tryParseRfc3339(p.datetime) : undefined;
  const geometry = record.details.geometry as Geometry | null;
  const b = geometry ? geometryBbox(geometry) : null;
  // An empty geometry has no bounds: it has no R*Tree entry, so spatial filters never match it.
  const bounds = b && b.every(Number.isFinite) ? (b as unknown as Bounds) : null;
  // Typed columns hold numbers only; other values stay in the JSON (search reads them there).
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const row = [
    record.id,
    links.orgId,
    record.task_id ?? null,
    links.orderItemId,
    links.orderId,
    record.details.id,
    typeof record.details.collection === 'string' ? record.details.collection : null,
    dt?.ok ? dt.value : null,
    num(p['eo:cloud_cover']),
    num(p['view:off_nadir']),
    num(p.gsd),
    bounds?.[0] ?? null,
    bounds?.[1] ?? null,
    bounds?.[2] ?? null,
    bounds?.[3] ?? null,
    record.created_at ? isoTimestamp.parse(record.created_at) : 0,
    record.updated_at ? isoTimestamp.parse(record.updated_at) : 0,
    JSON.stringify(record),
  ];
  return { row, bounds };
}

function rtreeInsert(sqlite: Database.Database) {
  const insert = sqlite.prepare(
    'INSERT INTO catalog_rtree (seq, min_lon, max_lon, min_lat, max_lat) VALUES (?, ?, ?, ?, ?)',
  );
  return (seq: number | bigint, b: Bounds) => insert.run(seq, b[0], b[2], b[1], b[3]);
}

/** Inserts a new record (its id must be new). */
export function makeCatalogInserter(sqlite: Database.Database) {
  const insert = sqlite.prepare(
    `INSERT INTO catalog_records (${COLUMNS}) VALUES (${PLACEHOLDERS})`,
  );
  const insertRtree = rtreeInsert(sqlite);
  return (record: CatalogRecordOut, links: CatalogLinks): void => {
    const { row, bounds } = recordRow(record, links);
    const r = insert.run(...row);
    if (bounds) insertRtree(r.lastInsertRowid, bounds);
  };
}

/**
 * Inserts or replaces a record by id, keeping its row (seq) when it exists. Call inside a
 * transaction when writing many: the R*Tree entry is rewritten with the row.
 */
export function makeCatalogUpserter(sqlite: Database.Database) {
  const updates = COLUMNS.split(',')
    .map((c) => c.trim())
    .filter((c) => c !== 'id')
    .map((c) => `${c} = excluded.${c}`)
    .join(', ');
  const upsert = sqlite.prepare(
    `INSERT INTO catalog_records (${COLUMNS}) VALUES (${PLACEHOLDERS})
     ON CONFLICT(id) DO UPDATE SET ${updates} RETURNING seq`,
  );
  const dropRtree = sqlite.prepare('DELETE FROM catalog_rtree WHERE seq = ?');
  const insertRtree = rtreeInsert(sqlite);
  return (record: CatalogRecordOut, links: CatalogLinks): void => {
    const { row, bounds } = recordRow(record, links);
    const { seq } = upsert.get(...row) as { seq: number };
    dropRtree.run(seq);
    if (bounds) insertRtree(seq, bounds);
  };
}

/** Deletes records (and their R*Tree entries) by id; returns how many rows went. */
export function makeCatalogDeleter(sqlite: Database.Database) {
  const dropRtree = sqlite.prepare(
    `DELETE FROM catalog_rtree WHERE seq IN
       (SELECT seq FROM catalog_records WHERE id IN (SELECT value FROM json_each(?)))`,
  );
  const drop = sqlite.prepare(
    'DELETE FROM catalog_records WHERE id IN (SELECT value FROM json_each(?))',
  );
  return (ids: readonly string[]): number => {
    if (ids.length === 0) return 0;
    const list = JSON.stringify(ids);
    dropRtree.run(list);
    return drop.run(list).changes;
  };
}
