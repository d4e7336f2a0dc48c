/**
 * `files.export`: records of the mirror (offline) as a field file, written with `@eo/formats`
 * in the backend (never in the renderer): catalog search results or a selection, orders and
 * order items (one feature per item, with its order's id and status), AOIs, deliveries (with
 * the area each delivers). KML and KMZ are styled by `status` (else `order_status`).
 */
import { LIMITS } from '@eo/domain';
// Types only here: the writers (and their XML, zip and projection libraries) load on the first
// export, not at start-up (cold start, issue 13).
import type { ExportFeature, ExportFormat } from '@eo/formats';
import {
  aoiFeature,
  catalogFeature,
  deliveryFeature,
  orderItemFeature,
  type Mirror,
} from '@eo/sync';
import {
  ContractError,
  MAX_EXPORT_FEATURES,
  type ExportedFile,
  type ParsedInput,
} from '../shared/contract';

type Request = ParsedInput<'files.export'>;
type Source = Request['source'];
type Json = Record<string, unknown>;

export const EXPORT_FILES: Record<ExportFormat, { ext: string; mediaType: string }> = {
  geojson: { ext: 'geojson', mediaType: 'application/geo+json' },
  csv: { ext: 'csv', mediaType: 'text/csv' },
  kml: { ext: 'kml', mediaType: 'application/vnd.google-earth.kml+xml' },
  kmz: { ext: 'kmz', mediaType: 'application/vnd.google-earth.kmz' },
  shp: { ext: 'shp.zip', mediaType: 'application/zip' },
  gpkg: { ext: 'gpkg', mediaType: 'application/geopackage+sqlite3' },
};

/** The layer (Shapefile, GeoPackage table) and file name stem of each source. */
const LAYER: Record<Source['kind'], string> = {
  catalog: 'search',
  catalogRecords: 'selection',
  orders: 'order_items',
  orderItems: 'order_items',
  aois: 'aois',
  deliveries: 'deliveries',
};

const picked = <T extends Json>(rows: T[], ids: readonly string[] | undefined, key = 'id') => {
  if (!ids) return rows;
  const wanted = new Set(ids);
  return rows.filter((r) => wanted.has(String(r[key])));
};

/** "20260525-1412" (UTC): files of one day sort by time. */
function stamp(now: Date): string {
  const iso = now.toISOString();
  return `${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 16).replace(':', '')}`;
}

export function makeFileExport(mirror: Mirror, now: () => Date = () => new Date()) {
  const { records, catalog } = mirror;

  /** Every match of the search, page by page (the query's own page is the list's, not this). */
  function searchAll(query: Extract<Source, { kind: 'catalog' }>['query']): unknown[] {
    const out: unknown[] = [];
    for (let offset = 0; ; offset += LIMITS.maxLimit) {
      const page = catalog.searchParsed({ ...query, limit: LIMITS.maxLimit, offset });
      out.push(...page.catalogs);
      if (out.length > MAX_EXPORT_FEATURES) tooMany();
      if (page.catalogs.length < LIMITS.maxLimit) return out;
    }
  }

  function tooMany(): never {
    throw new ContractError(
      'invalid_argument',
      `More than ${MAX_EXPORT_FEATURES.toLocaleString('en')} features: narrow the search first.`,
      { issues: [{ path: 'source', message: `more than ${MAX_EXPORT_FEATURES} features` }] },
    );
  }

  /** The area a delivery delivers: its catalog record's footprint, or its task's order item. */
  function deliveredArea(d: Json, items: () => Json[]): unknown {
    if (typeof d.catalog_id === 'string') {
      const record = catalog.get(d.catalog_id) as { details?: Json } | null;
      return record?.details?.geometry ?? null;
    }
    if (typeof d.task_id === 'string') {
      const item = items().find(
        (i) => Array.isArray(i.tasks) && i.tasks.some((t) => (t as Json)?.id === d.task_id),
      );
      return item?.geometry ?? null;
    }
    return null;
  }

  function features(source: Source): ExportFeature[] {
    switch (source.kind) {
      case 'catalog':
        return searchAll(source.query).map(catalogFeature);
      case 'catalogRecords':
        return source.ids.flatMap((id) => {
          const r = catalog.get(id);
          return r ? [catalogFeature(r)] : [];
        });
      case 'orders':
      case 'orderItems': {
        const orders = new Map(records.orders<Json>().map((o) => [String(o.id), o]));
        const all = records.orderItems<Json>(
          source.kind === 'orders' && source.ids ? { orderIds: source.ids } : {},
        );
        const items = source.kind === 'orderItems' ? picked(all, source.ids) : all;
        return items.map((i) => orderItemFeature(orders.get(String(i.order_id)) ?? null, i));
      }
      case 'aois':
        return picked(records.aois<Json>(), source.ids, 'aoi_id').map(aoiFeature);
      case 'deliveries': {
        let items: Json[] | null = null;
        const allItems = () => (items ??= records.orderItems<Json>());
        return picked(records.deliveries() as Json[], source.ids, 'delivery_id').map((d) =>
          deliveryFeature(d, deliveredArea(d, allItems)),
        );
      }
    }
  }

  return {
    async export(req: Request): Promise<ExportedFile> {
      const list = features(req.source);
      if (list.length > MAX_EXPORT_FEATURES) tooMany();
      const layer = LAYER[req.source.kind];
      const { exportFeatures, exportNotes } = await import('@eo/formats');
      const options = { wkt: req.wkt !== false, layer };
      const data = exportFeatures(list, req.format, options);
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data);
      const { ext, mediaType } = EXPORT_FILES[req.format];
      return {
        fileName: `eo-${layer.replaceAll('_', '-')}-${stamp(now())}.${ext}`,
        mediaType,
        features: list.length,
        bytes: bytes.length,
        base64: bytes.toString('base64'),
        notes: exportNotes(list, req.format, options),
      };
    },
  };
}

export type FileExport = ReturnType<typeof makeFileExport>;
