/**
 * The map's footprint of each catalog record, kept beside the R*Tree in `catalog_footprints`:
 * one ring per record as Float32 lon/lat pairs in a BLOB, so drawing every match of a search
 * reads a few dozen bytes per record instead of parsing its stored JSON (~2.5 kB). The exact
 * geometry stays in `record_json`; searches test that one, never this.
 *
 * The ring is the polygon's outer ring, a multi-polygon's largest one, or, for any other
 * geometry with bounds, the bounding box; without its closing point (the map closes paths) and
 * simplified within `FOOTPRINT_TOLERANCE_DEG`.
 */
import type Database from 'better-sqlite3';
import { blob, integer, sqliteTable } from 'drizzle-orm/sqlite-core';

/**
 * `seq` is the record's `catalog_records.seq`, as in `catalog_rtree`; the writers keep both in
 * step with the record. A record with nothing to draw has no row.
 */
export const catalogFootprints = sqliteTable('catalog_footprints', {
  seq: integer('seq').primaryKey(),
  /** Float32 little-endian lon, lat pairs: at least 3 points, the closing point left out. */
  ring: blob('ring', { mode: 'buffer' }).notNull(),
});

/**
 * How far (degrees) a simplified ring may stray from the exact one: about 1 m, the order of
 * Float32's own rounding of a longitude (0.85 m at most beyond 64 degrees), below a pixel up to
 * zoom 17 and about one at the map's deepest zoom (18).
 */
export const FOOTPRINT_TOLERANCE_DEG = 1e-5;

type Bounds = readonly [number, number, number, number];
type Position = readonly number[];

const isFinitePosition = (p: unknown): p is Position =>
  Array.isArray(p) &&
  typeof p[0] === 'number' &&
  typeof p[1] === 'number' &&
  Number.isFinite(p[0]) &&
  Number.isFinite(p[1]);

function polygonOuter(coords: unknown): Position[] | null {
  if (!Array.isArray(coords) || !Array.isArray(coords[0])) return null;
  const ring = coords[0] as unknown[];
  return ring.every(isFinitePosition) ? (ring as Position[]) : null;
}

/** Shoelace area in degrees squared (only compared, never shown). */
function ringArea(ring: readonly Position[]): number {
  let a = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    a += (ring[j]![0]! - ring[i]![0]!) * (ring[j]![1]! + ring[i]![1]!);
  }
  return Math.abs(a / 2);
}

/** The ring the map draws of a GeoJSON geometry (any value: it may come from a real service). */
function outerRingOf(geometry: unknown): Position[] | null {
  if (typeof geometry !== 'object' || geometry === null) return null;
  const g = geometry as { type?: unknown; coordinates?: unknown };
  if (g.type === 'Polygon') return polygonOuter(g.coordinates);
  if (g.type !== 'MultiPolygon' || !Array.isArray(g.coordinates)) return null;
  let best: Position[] | null = null;
  let bestArea = -1;
  for (const poly of g.coordinates) {
    const outer = polygonOuter(poly);
    if (!outer || outer.length < 3) continue;
    const a = ringArea(outer);
    if (a > bestArea) {
      bestArea = a;
      best = outer;
    }
  }
  return best;
}

/** Squared distance from p to the segment a-b (a point when a = b). */
function segmentDistance2(p: Position, a: Position, b: Position): number {
  const [px, py] = [p[0]!, p[1]!];
  const [ax, ay] = [a[0]!, a[1]!];
  const dx = b[0]! - ax;
  const dy = b[1]! - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2));
  const ex = ax + t * dx - px;
  const ey = ay + t * dy - py;
  return ex * ex + ey * ey;
}

/**
 * Douglas-Peucker over the closed ring (first point as both ends): keeps the points that stray
 * more than `tolerance` from the simplified outline. Iterative (a ring may be long).
 */
function simplify(ring: readonly Position[], tolerance: number): Position[] {
  const n = ring.length;
  const keep = new Uint8Array(n + 1);
  keep[0] = keep[n] = 1;
  const at = (i: number) => ring[i === n ? 0 : i]!;
  const tol2 = tolerance * tolerance;
  const stack: Array<[number, number]> = [[0, n]];
  while (stack.length > 0) {
    const [from, to] = stack.pop()!;
    let worst = -1;
    let worstD = tol2;
    for (let i = from + 1; i < to; i++) {
      const d = segmentDistance2(at(i), at(from), at(to));
      if (d > worstD) {
        worstD = d;
        worst = i;
      }
    }
    if (worst < 0) continue;
    keep[worst] = 1;
    stack.push([from, worst], [worst, to]);
  }
  const out: Position[] = [];
  for (let i = 0; i < n; i++) if (keep[i]) out.push(ring[i]!);
  return out;
}

/**
 * The ring to store for a record: from its geometry, else from its bounds (the box), else
 * null. Returned as flat [lon, lat, ...] in degrees (Float32 when stored).
 */
export function footprintRing(geometry: unknown, bounds: Bounds | null): number[] | null {
  let ring = outerRingOf(geometry);
  if (ring) {
    const first = ring[0];
    const last = ring[ring.length - 1];
    if (ring.length > 1 && first![0] === last![0] && first![1] === last![1]) {
      ring = ring.slice(0, -1);
    }
    if (ring.length >= 3) {
      const simple = simplify(ring, FOOTPRINT_TOLERANCE_DEG);
      // A sliver thinner than the tolerance keeps its points: a ring needs three.
      return (simple.length >= 3 ? simple : ring).flatMap((p) => [p[0]!, p[1]!]);
    }
  }
  if (!bounds || !bounds.every(Number.isFinite)) return null;
  const [w, s, e, n] = bounds;
  return [w, s, e, s, e, n, w, n];
}

/** The stored form of a ring: Float32 little-endian pairs. */
export function footprintBlob(ring: readonly number[]): Buffer {
  const out = Buffer.allocUnsafe(ring.length * 4);
  for (let i = 0; i < ring.length; i++) out.writeFloatLE(ring[i]!, i * 4);
  return out;
}

/** The points of a stored ring, or null when its length is not whole points (a damaged row). */
export function footprintPoints(ring: { readonly byteLength: number }): number | null {
  return ring.byteLength % 8 === 0 && ring.byteLength >= 24 ? ring.byteLength / 8 : null;
}

/**
 * `eo_footprint_ring(record_json -> '$.details.geometry', min_lon, min_lat, max_lon, max_lat)`:
 * the stored ring of a record, exactly as its writer stores it (`->` keeps JSON strings quoted,
 * so the parsed value is the one the writer saw). The migration that created `catalog_footprints` fills it for
 * the records already there with this, so the service and the mirror open their databases with
 * it installed before migrating.
 */
export function installFootprintFunction(sqlite: Database.Database): void {
  sqlite.function(
    'eo_footprint_ring',
    { deterministic: true },
    (geometry: unknown, w: unknown, s: unknown, e: unknown, n: unknown) => {
      let g: unknown = null;
      if (typeof geometry === 'string') {
        try {
          g = JSON.parse(geometry);
        } catch {
          g = null;
        }
      }
      const b = [w, s, e, n];
      const bounds = b.every((v) => typeof v === 'number') ? (b as unknown as Bounds) : null;
      const ring = footprintRing(g, bounds);
      return ring ? footprintBlob(ring) : null;
    },
  );
}

/**
 * The backfill of the migration that creates `catalog_footprints`, in the service's and the
 * mirror's migration files verbatim (whitespace aside; their migration tests hold them to it).
 */
export const CATALOG_FOOTPRINTS_BACKFILL = `INSERT INTO \`catalog_footprints\` (\`seq\`, \`ring\`)
  SELECT \`seq\`, \`ring\` FROM (
    SELECT \`seq\`, eo_footprint_ring(\`record_json\` -> '$.details.geometry',
      \`min_lon\`, \`min_lat\`, \`max_lon\`, \`max_lat\`) AS \`ring\`
    FROM \`catalog_records\`)
  WHERE \`ring\` IS NOT NULL;`;

/** Writes a record's footprint row (or removes it when there is nothing to draw). */
export function footprintWriter(sqlite: Database.Database) {
  const put = sqlite.prepare('INSERT OR REPLACE INTO catalog_footprints (seq, ring) VALUES (?, ?)');
  const drop = sqlite.prepare('DELETE FROM catalog_footprints WHERE seq = ?');
  return (seq: number | bigint, geometry: unknown, bounds: Bounds | null): void => {
    const ring = footprintRing(geometry, bounds);
    if (ring) put.run(seq, footprintBlob(ring));
    else drop.run(seq);
  };
}
