/**
 * What the catalog browser needs from the mirror, in the shapes of the contract: compact rows
 * for a page of results (offline search: same SQL, same answers as the service), the footprints
 * of ALL matches in one compact message, and one full record. The SQL is @eo/sync's.
 */
import type { Mirror } from '@eo/sync';
import type {
  CatalogPage,
  CatalogQuery,
  CatalogRecordView,
  CatalogRow,
  Footprints,
} from '../shared/contract';

export function makeCatalogView(mirror: Mirror) {
  return {
    /** `query` was validated by dispatch: the mirror's search takes it as parsed. */
    search(query: CatalogQuery): CatalogPage {
      const page = mirror.catalog.searchParsed(query);
      return {
        total: page.pagination.total ?? page.catalogs.length,
        limit: page.pagination.limit,
        offset: page.pagination.offset,
        items: page.catalogs.map((r) => toRow(r as Record<string, unknown>)),
      };
    },
    footprints: (query: CatalogQuery): Footprints => {
      const fp = mirror.catalog.footprints(query);
      const rings = fp.ids.map((_, i) => [
        ...fp.coords.subarray(fp.offsets[i]! * 2, fp.offsets[i + 1]! * 2),
      ]);
      return { ids: fp.ids, rings };
    },
    get: (id: string) => mirror.catalog.get(id) as CatalogRecordView | null,
  };
}

export type CatalogView = ReturnType<typeof makeCatalogView>;

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The list row of a stored record (the STAC item sits in `details`). */
export function toRow(record: Record<string, unknown>): CatalogRow {
  const details = (record.details ?? {}) as Record<string, unknown>;
  const p = (details.properties ?? {}) as Record<string, unknown>;
  // A 3D bbox is [w, s, zmin, e, n, zmax].
  const b = Array.isArray(details.bbox) ? (details.bbox as unknown[]) : [];
  const bbox = b.length === 6 ? [b[0], b[1], b[3], b[4]] : b.slice(0, 4);
  return {
    id: String(record.id),
    collection: str(details.collection),
    datetime: str(p.datetime),
    cloudCover: num(p['eo:cloud_cover']),
    offNadir: num(p['view:off_nadir']),
    gsd: num(p.gsd),
    platform: str(p.platform),
    bbox:
      bbox.length === 4 && bbox.every((v) => num(v) !== null)
        ? (bbox as [number, number, number, number])
        : null,
  };
}
