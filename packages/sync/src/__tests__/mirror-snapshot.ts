/**
 * The mirror's contents and the service's lists in one comparable shape: per resource, every
 * record by id (its JSON as the client decodes it). `expect(mirror).toEqual(service)` then says
 * "same ids, same records" with a readable diff.
 */
import { COMPACT_LAYOUT, installRecordFunction } from '@eo/catalog-store';
import type { EoClient, Page } from '@eo/api-client';
import type Database from 'better-sqlite3';
import type { ResourceName } from '../mirror/writers';

export type Snapshot = Record<ResourceName, Record<string, unknown>>;

const MIRROR_TABLES: Record<ResourceName, string> = {
  orders: 'SELECT id, json FROM mirror_orders',
  orderItems: 'SELECT id, json FROM mirror_order_items',
  aois: 'SELECT aoi_id AS id, json FROM mirror_aois',
  assets: 'SELECT id, json FROM mirror_assets',
  indices: 'SELECT id, json FROM mirror_indices',
  catalogs: `SELECT c.id, ${COMPACT_LAYOUT.recordSql} AS json FROM catalog_records c`,
};

const byId = (entries: Array<[string, unknown]>) =>
  Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

export function mirrorSnapshot(sqlite: Database.Database): Snapshot {
  // Packed catalog records are read with `eo_catalog_record` (a connection of its own may lack it).
  installRecordFunction(sqlite);
  const read = (sql: string) =>
    byId(
      (sqlite.prepare(sql).all() as Array<{ id: string; json: string }>).map((r) => [
        r.id,
        JSON.parse(r.json) as unknown,
      ]),
    );
  return Object.fromEntries(
    Object.entries(MIRROR_TABLES).map(([resource, sql]) => [resource, read(sql)]),
  ) as Snapshot;
}

async function collect(
  pages: AsyncIterable<Page<unknown>>,
  key: string,
): Promise<Array<[string, unknown]>> {
  const out: Array<[string, unknown]> = [];
  for await (const page of pages)
    for (const r of page.items) out.push([String((r as Record<string, unknown>)[key]), r]);
  return out;
}

/** Every list of the service, read directly (give a client that bypasses any fault proxy). */
export async function serviceSnapshot(client: EoClient): Promise<Snapshot> {
  const o = { pageSize: 1000 };
  const aois = await collect(client.pages.aois({}, o), 'aoi_id');
  const assets: Array<[string, unknown]> = [];
  for (const [aoiId] of aois)
    assets.push(...(await collect(client.pages.aoiAssets(aoiId, {}, o), 'id')));
  return {
    orders: byId(await collect(client.pages.orders({}, o), 'id')),
    orderItems: byId(await collect(client.pages.orderItems({}, o), 'id')),
    aois: byId(aois),
    assets: byId(assets),
    indices: byId(await collect(client.pages.indices({}, o), 'id')),
    catalogs: byId(await collect(client.pages.catalogs({}, o), 'id')),
  };
}

/** Record counts per resource, for messages. */
export function sizes(s: Snapshot): Record<ResourceName, number> {
  return Object.fromEntries(
    Object.entries(s).map(([k, v]) => [k, Object.keys(v).length]),
  ) as Record<ResourceName, number>;
}
