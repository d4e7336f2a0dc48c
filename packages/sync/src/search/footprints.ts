/**
 * The footprints of ALL catalog records a search matches, in one compact answer (a map draws
 * them; a result page holds only `limit` records). The matches come from the same compiled SQL
 * as the search (`@eo/catalog-store`), reading indexed columns only; the rings come from a cache.
 */
import { compileCatalogSql, withQueryGeometry } from '@eo/catalog-store';
import type { CatalogSearchRequest } from '@eo/domain';
import type Database from 'better-sqlite3';
import { MIRROR_ORG } from '../mirror/rows';

/** Record ids and their outer rings as flat `[lon, lat, ...]` lists, in the same order. */
export interface CatalogFootprints {
  readonly ids: string[];
  readonly rings: number[][];
}

interface FootprintRow {
  g: string | null;
  w: number | null;
  s: number | null;
  e: number | null;
  n: number | null;
}

/** Needs `eo_intersects` and `eo_rfc3339` installed on `sqlite` (the offline search does it). */
export function makeCatalogFootprints(sqlite: Database.Database) {
  /**
   * Footprint rings by row seq. Extracting a geometry means SQLite parsing the whole stored
   * record (~2.5 kB), several times the cost of reading the row: done once per record, then
   * every pan or filter change only reads indexed columns. Cleared when the mirror changes.
   */
  const rings = new Map<number, number[] | null>();
  const ringsOf = sqlite.prepare<[string], FootprintRow & { seq: number }>(
    `SELECT seq, json_extract(record_json, '$.details.geometry') AS g,
       min_lon AS w, min_lat AS s, max_lon AS e, max_lat AS n
     FROM catalog_records WHERE seq IN (SELECT value FROM json_each(?))`,
  );
  function fillRings(seqs: number[]): void {
    const CHUNK = 2000;
    for (let i = 0; i < seqs.length; i += CHUNK) {
      for (const r of ringsOf.all(JSON.stringify(seqs.slice(i, i + CHUNK)))) {
        rings.set(r.seq, outerRing(r));
      }
    }
  }

  return {
    /** `req` is a parsed search request (its paging is ignored: every match counts). */
    footprints(req: CatalogSearchRequest): CatalogFootprints {
      const c = compileCatalogSql(MIRROR_ORG, req);
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
    /** Forget cached rings: the catalog records changed (a sync wrote, or the mirror was cleared). */
    invalidate(): void {
      rings.clear();
    },
  };
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
