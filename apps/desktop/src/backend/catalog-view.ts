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

  /**
   * Footprint rings by row seq. Extracting a geometry means SQLite parsing the whole stored
   * record (~2.5 kB), several times the cost of reading the row: done once per record, then
   * every pan or filter change only reads indexed columns. Cleared when the mirror changes.
   */
  const rings = new Map<number, number[] | null>();
  function fillRings(seqs: number[]): void {
    const CHUNK = 2000;
    const stmt = sqlite.prepare<[string], FootprintRow & { seq: number }>(
      `SELECT seq, json_extract(record_json, '$.details.geometry') AS g,
         min_lon AS w, min_lat AS s, max_lon AS e, max_lat AS n
       FROM catalog_records WHERE seq IN (SELECT value FROM json_each(?))`,
    );
    for (let i = 0; i < seqs.length; i += CHUNK) {
      for (const r of stmt.all(JSON.stringify(seqs.slice(i, i + CHUNK)))) {
        rings.set(r.seq, outerRing(r));
      }
    }
  }

  return {
    /** `query` was validated by dispatch: the mirror's search takes it as parsed. */
    search(query: CatalogQuery): CatalogPage {
      const page = search.parsed(query);
      return {
        total: page.pagination.total ?? page.catalogs.length,
        limit: page.pagination.limit,
        offset: page.pagination.offset,
        items: page.catalogs.map((r) => toRow(r as Record<string, unknown>)),
      };
    },

    footprints(query: CatalogQuery): Footprints {
      const c = compileCatalogSql(MIRROR_ORG, query);
      if (c.empty) return { ids: [], rings: [] };
      // The matches by their indexed columns only (cheap); rings come from the cache.
      const sql = `SELECT c.seq AS seq, c.id AS id FROM ${c.from} WHERE ${c.where}`;
      const read = (params: Record<string, unknown>) =>
        sqlite.prepare(sql).all(params) as Array<{ seq: number; id: string }>;
      const matches =
        c.geometry === null
          ? read(c.params)
          : withQueryGeometry(sqlite, c.geometry, (token) => read({ ...c.params, token }));
      fillRings(matches.filter((m) => !rings.has(m.seq)).map((m) => m.seq));
      const ids: string[] = [];
      const out: number[][] = [];
      for (const m of matches) {
        const ring = rings.get(m.seq);
        if (ring) {
          ids.push(m.id);
          out.push(ring);
        }
      }
      return { ids, rings: out };
    },

    /** Forget cached rings: the mirror changed (a sync wrote, or it was cleared). */
    invalidate(): void {
      rings.clear();
    },

    get(id: string): CatalogRecordView | null {
      const row = byId.get(MIRROR_ORG, id);
      return row ? (JSON.parse(row.record_json) as CatalogRecordView) : null;
    },
  };
}

export type CatalogView = ReturnType<typeof makeCatalogView>;

interface FootprintRow {
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
    if (ring && ring.length >= 3) return ring.flatMap((p) => [round6(p[0]!), round6(p[1]!)]);
  }
  if (r.w === null || r.s === null || r.e === null || r.n === null) return null;
  const [w, s, e, n] = [round6(r.w), round6(r.s), round6(r.e), round6(r.n)];
  return [w, s, e, s, e, n, w, n, w, s];
}

/** Footprints are for drawing: 1e-6 degrees (~0.1 m) is plenty, and keeps messages short. */
function round6(v: number): number {
  return Math.round(v * 1e6) / 1e6;
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
