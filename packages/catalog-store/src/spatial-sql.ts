/**
 * The exact half of spatial search in SQL. R*Tree tables give a superset of candidates (they
 * store 32-bit floats rounded outward); `eo_intersects(token, footprint)` (GeoJSON text, or a
 * geometry BLOB of the compact layout) then tests each
 * candidate's real footprint against the query geometry with the domain's `geometryIntersects` (as
 * `primitivesIntersect`, the query decomposed once).
 *
 * The query geometry is registered for the duration of one synchronous read
 * (`withQueryGeometry`) under a token passed as a bound parameter, so statements stay prepared
 * and cacheable. better-sqlite3 runs a statement to completion before returning, so no two
 * reads interleave on one connection.
 */
import {
  geometryPrimitives,
  primitivesIntersect,
  type Geometry,
  type GeometryPrimitives,
} from '@eo/domain';
import type Database from 'better-sqlite3';
import { decodeGeometry } from './compact/geometry-blob';

interface Registry {
  /** Query geometries, decomposed once per search. */
  readonly queries: Map<number, GeometryPrimitives>;
  next: number;
}

const registries = new WeakMap<Database.Database, Registry>();

function registry(sqlite: Database.Database): Registry {
  const r = registries.get(sqlite);
  if (r) return r;
  const created: Registry = { queries: new Map(), next: 1 };
  sqlite.function(
    'eo_intersects',
    { deterministic: false },
    (token: unknown, geojson: unknown): number => {
      const query = created.queries.get(Number(token));
      if (!query) throw new Error('eo_intersects: no query geometry registered for this token');
      // The JSON layout's footprint is JSON text, the compact layout's a geometry BLOB.
      const footprint =
        typeof geojson === 'string'
          ? JSON.parse(geojson)
          : geojson instanceof Uint8Array
            ? decodeGeometry(geojson)
            : null;
      if (footprint === null) return 0;
      return primitivesIntersect(geometryPrimitives(footprint as Geometry), query) ? 1 : 0;
    },
  );
  registries.set(sqlite, created);
  return created;
}

/** Makes sure `eo_intersects` exists on this connection (call once when preparing statements). */
export function installSpatialFunctions(sqlite: Database.Database): void {
  registry(sqlite);
}

/** Runs `read(token)` with `geometry` registered as the query geometry of `token`. */
export function withQueryGeometry<T>(
  sqlite: Database.Database,
  geometry: Geometry,
  read: (token: number) => T,
): T {
  const r = registry(sqlite);
  const token = r.next++;
  r.queries.set(token, geometryPrimitives(geometry));
  try {
    return read(token);
  } finally {
    r.queries.delete(token);
  }
}

/** `[west, south, east, north]` boxes as R*Tree range conditions on alias `alias`. */
export function rtreeBoxCondition(alias: string): string {
  return `${alias}.min_lon <= @box_e AND ${alias}.max_lon >= @box_w AND ${alias}.min_lat <= @box_n AND ${alias}.max_lat >= @box_s`;
}

export function boxParams(b: readonly [number, number, number, number]) {
  return { box_w: b[0], box_s: b[1], box_e: b[2], box_n: b[3] };
}
