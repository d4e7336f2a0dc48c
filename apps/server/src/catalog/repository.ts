/** Writes of catalog records (and their R*Tree entries); search lives in `search.ts`. */
import type { CatalogRecord, Geometry } from '@eo/domain';
import { tryParseRfc3339, isoTimestamp, geometryBbox } from '@eo/domain';
import type Database from 'better-sqlite3';
import type { z } from 'zod';

export type CatalogRecordOut = z.input<typeof CatalogRecord>;

export interface CatalogLinks {
  readonly orgId: string;
  readonly orderId: string | null;
  readonly orderItemId: string | null;
}

export function makeCatalogInserter(sqlite: Database.Database) {
  const insert = sqlite.prepare(
    `INSERT INTO catalog_records (id, org_id, task_id, order_item_id, order_id, item_id, collection, datetime_us,
       cloud_cover, off_nadir, gsd, min_lon, min_lat, max_lon, max_lat, created_at_us, updated_at_us, record_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertRtree = sqlite.prepare(
    'INSERT INTO catalog_rtree (seq, min_lon, max_lon, min_lat, max_lat) VALUES (?, ?, ?, ?, ?)',
  );
  return (record: CatalogRecordOut, links: CatalogLinks): void => {
    const p = record.details.properties;
    const dt = typeof p.datetime === 'string' ? tryParseRfc3339(p.datetime) : undefined;
    const geometry = record.details.geometry as Geometry | null;
    const b = geometry ? geometryBbox(geometry) : null;
    // An empty geometry has no bounds: it has no R*Tree entry, so spatial filters never match it.
    const bounds = b && b.every(Number.isFinite) ? b : null;
    // Typed columns hold numbers only; other values stay in the JSON (search reads them there).
    const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
    const r = insert.run(
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
    );
    if (bounds) insertRtree.run(r.lastInsertRowid, bounds[0], bounds[2], bounds[1], bounds[3]);
  };
}
