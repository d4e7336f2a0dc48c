/** Builders of catalog records for the search specs (only the fields search reads matter). */
import type { Geometry, Polygon } from '../../geometry';
import type { CatalogRecord } from '../../resources/catalog';
import type { SearchableRecord } from '../evaluate';

export interface RecordSpec {
  id: string;
  itemId?: string;
  collection?: string | null;
  geometry?: Geometry | null;
  properties?: Record<string, unknown>;
  fields?: Partial<
    Pick<
      CatalogRecord,
      'area' | 'bandset_id' | 'task_id' | 'delivery_status' | 'created_at' | 'updated_at'
    >
  >;
  orderId?: string | null;
  orderItemId?: string | null;
}

export function record(spec: RecordSpec): SearchableRecord {
  const rec: CatalogRecord = {
    id: spec.id,
    ...spec.fields,
    details: {
      assets: {},
      collection: spec.collection === undefined ? 'optical' : spec.collection,
      geometry: spec.geometry === undefined ? null : spec.geometry,
      id: spec.itemId ?? `item-${spec.id}`,
      links: [],
      properties: { ...spec.properties },
      stac_extensions: [],
      type: 'Feature',
    },
  };
  return {
    record: rec,
    links: { orderId: spec.orderId ?? null, orderItemId: spec.orderItemId ?? null },
  };
}

/** A counter-clockwise lon/lat rectangle. */
export function rect(w: number, s: number, e: number, n: number): Polygon {
  return {
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
  };
}

export function ids(result: { catalogs: CatalogRecord[] }): string[] {
  return result.catalogs.map((c) => c.id);
}
