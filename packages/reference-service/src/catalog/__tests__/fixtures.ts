/** Hand-made catalog records with known footprints, times and property types, for search tests. */
import type { Geometry } from '@eo/domain';
import type Database from 'better-sqlite3';
import { makeCatalogInserter, type CatalogRecordOut } from '../repository';

export const square = (w: number, s: number, e: number, n: number): Geometry => ({
  type: 'Polygon',
  coordinates: [
    [
      [w, s],
      [e, s],
      [e, n],
      [w, n],
      [w, s],
    ],
  ],
});

export interface Fixture {
  id: string;
  orgId: string;
  orderId?: string | null;
  orderItemId?: string | null;
  itemId?: string;
  collection?: string | null;
  geometry: Geometry | null;
  properties: Record<string, unknown>;
}

export function record(f: Fixture): CatalogRecordOut {
  return {
    id: f.id,
    area: 12.5,
    bandset_id: 'bs-aurora-rgbn',
    task_id: null,
    org_id: f.orgId,
    delivery_status: 'SUCCESSFUL',
    created_at: '2024-04-01T00:00:00Z',
    updated_at: '2024-04-01T00:00:00Z',
    created_by: 'usr-demo-analyst',
    updated_by: 'usr-demo-analyst',
    details: {
      type: 'Feature',
      stac_version: '1.0.0',
      stac_extensions: [],
      id: f.itemId ?? `item-${f.id}`,
      ...(f.collection === undefined ? {} : { collection: f.collection }),
      geometry: f.geometry,
      bbox: null,
      assets: {},
      links: [],
      properties: f.properties as CatalogRecordOut['details']['properties'],
    },
  };
}

export function insertFixtures(sqlite: Database.Database, fixtures: readonly Fixture[]): void {
  const insert = makeCatalogInserter(sqlite);
  sqlite.transaction(() => {
    for (const f of fixtures)
      insert(record(f), {
        orgId: f.orgId,
        orderId: f.orderId ?? null,
        orderItemId: f.orderItemId ?? null,
      });
  })();
}
