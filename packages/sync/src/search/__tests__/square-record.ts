/**
 * Hand-made catalog records for the footprint specs: each a 1-degree square at (x, y), written
 * into a mirror's catalog as a sync writes them (the lenient upserter, the mirror's org).
 */
import { COMPACT_LAYOUT, makeCatalogUpserter, type CatalogRecordOut } from '@eo/catalog-store';
import type Database from 'better-sqlite3';
import { MIRROR_ORG } from '../../mirror/rows';

const square = (x: number, y: number) => [
  [x, y],
  [x + 1, y],
  [x + 1, y + 1],
  [x, y + 1],
  [x, y],
];

/** Writes (or rewrites) record `id` with the square at (x, y) as its footprint. */
export function putSquare(sqlite: Database.Database, id: string, x: number, y: number): void {
  const record = {
    id,
    created_at: '2024-01-01T00:00:00Z',
    details: {
      id: `item-${id}`,
      geometry: { type: 'Polygon', coordinates: [square(x, y)] },
      properties: { datetime: '2024-01-01T00:00:00Z' },
    },
  } as unknown as CatalogRecordOut;
  makeCatalogUpserter(
    sqlite,
    'lenient',
    COMPACT_LAYOUT,
  )(record, {
    orgId: MIRROR_ORG,
    orderId: null,
    orderItemId: null,
  });
}
