/**
 * What the catalog browser needs from the mirror, in the shapes of the contract: compact rows
 * for a page of results (offline search: same SQL, same answers as the service), the footprints
 * of ALL matches in one compact message, and one full record.
 */
import {
  compileCatalogSql,
  installSpatialFunctions,
  installTimeFunction,
  withQueryGeometry,
} from '@eo/catalog-store';
import { makeOfflineCatalogSearch } from '@eo/sync';
import type Database from 'better-sqlite3';
import type {
  CatalogPage,
  CatalogQuery,
  CatalogRecordView,
  CatalogRow,
  Footprints,
} from '../shared/contract';

/** @eo/sync stores catalog records under this one organisation id (the mirror holds one org). */
const MIRROR_ORG = 'mirror';

export function makeCatalogView(sqlite: Database.Database) {
  const search = makeOfflineCatalogSearch(sqlite);
  installSpatialFunctions(sqlite);
  installTimeFunction(sqlite);
  const byId = sqlite.prepare<[string, string], { record_json: string }>(
    'SELECT record_json FROM catalog_records WHERE org_id = ? AND id = ?',
  );

  return {
    search(query: CatalogQuery): CatalogPage {
      const page = search(query);
      return {
        total: page.pagination.total ?? page.catalogs.length,
        limit: page.pagination.limit,
        offset: page.pagination.offset,
        items: page.catalogs.map((r) => toRow(r as Record<string, unknown>)),
      };
    },

    footprints(query: CatalogQuery): Footprints {
      const c = compileCatalogSql(MIRROR_ORG, query);
      const ids: string[] = [];
      const rings: number[][] = [];
      if (c.empty) return { ids, rings };
      // Only the geometry leaves SQLite (json_extract runs in C): 100k records stay cheap.
      const sql = `SELECT c.id AS id, json_extract(c.record_json, '$.details.geometry') AS g,
        c.min_lon AS w, c.min_lat AS s, c.max_lon AS e, c.max_lat AS n FROM ${c.from} WHERE ${c.where}`;
      const collect = (params: Record<string, unknown>) => {
        for (const r of sqlite.prepare(sql).iterate(params) as Iterable<FootprintRow>) {
          const ring = outerRing(r);
          if (ring) {
            ids.push(r.id);
            rings.push(ring);
          }
        }
      };
      if (c.geometry === null) collect(c.params);
      else withQueryGeometry(sqlite, c.geometry, (token) => collect({ ...c.params, token }));
      return { ids, rings };
    },

    get(id: string): CatalogRecordView | null {
      const row = byId.get(MIRROR_ORG, id);
      return row ? (JSON.parse(row.record_json) as CatalogRecordView) : null;
    },
  };
}

export type CatalogView = ReturnType<typeof makeCatalogView>;

interface FootprintRow {
  id: string;
  g: string | null;
  w: number | null;
  s: number | null;
  e: number | null;
  n: number | null;
}

/** Flat [lon, lat, ...] outer ring: the polygon's, a multi-polygon's largest, or the bbox. */
export function outerRing(r: FootprintRow): number[] | null {
  if (r.g !== null) {
    const g = JSON.parse(r.g) as { type?: string; coordinates?: unknown };
    let ring: number[][] | undefined;
    if (g.type === 'Polygon') ring = (g.coordinates as number[][][])[0];
    else if (g.type === 'MultiPolygon') {
      let best = -1;
      for (const poly of g.coordinates as number[][][][]) {
        const outer = poly[0];
        if (!outer) continue;
        const a = Math.abs(ringArea(outer));
        if (a > best) {
          best = a;
          ring = outer;
        }
      }
    }
    if (ring && ring.length >= 3) return ring.flatMap((p) => [p[0]!, p[1]!]);
  }
  if (r.w === null || r.s === null || r.e === null || r.n === null) return null;
  return [r.w, r.s, r.e, r.s, r.e, r.n, r.w, r.n, r.w, r.s];
}

function ringArea(ring: number[][]): number {
  let a = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    a += (ring[j]![0]! - ring[i]![0]!) * (ring[j]![1]! + ring[i]![1]!);
  }
  return a / 2;
}

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
