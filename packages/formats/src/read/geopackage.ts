/**
 * A GeoPackage (OGC 12-128r18): a SQLite file, opened from memory with better-sqlite3 (which we
 * ship). Every feature table of gpkg_contents is read; a geometry blob is the GeoPackage header
 * ("GP", version, flags, srs_id, an optional envelope) and WKB. Geometries in another CRS than
 * WGS 84 are reprojected from gpkg_spatial_ref_sys's definition.
 */
import Database from 'better-sqlite3';
import type { Geometry } from '@eo/domain';
import { readWkb } from '../geometry/wkb';
import { crsName, isWgs84, mapPositions, toWgs84, type Project } from '../geometry/reproject';
import type { ImportLimits } from '../limits';
import type { RawFeature } from '../types';
import type { Scalar } from '../write/feature';
import { makeCounter } from './counter';
import type { ReadResult } from './reader';

const SQLITE_MAGIC = 'SQLite format 3\u0000';
const ENVELOPE_BYTES = [0, 32, 48, 48, 64];

/** The WKB inside a GeoPackage geometry blob (null for an empty geometry). */
export function readGpkgGeometry(blob: Uint8Array): Geometry | null {
  if (blob.length < 8 || blob[0] !== 0x47 || blob[1] !== 0x50)
    throw new Error('a geometry blob without the GeoPackage header');
  const flags = blob[3]!;
  const envelope = ENVELOPE_BYTES[(flags >> 1) & 7];
  if (envelope === undefined) throw new Error('a geometry blob with an unknown envelope');
  if (flags & 0x10) return null;
  return readWkb(blob, 8 + envelope);
}

function quoteId(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function readGeoPackage(bytes: Uint8Array, limits: ImportLimits): ReadResult {
  if (new TextDecoder().decode(bytes.subarray(0, 16)) !== SQLITE_MAGIC)
    throw new Error('not a GeoPackage (no SQLite header)');
  // QGIS and QField leave GeoPackages in WAL mode (header bytes 18 and 19 = 2), which SQLite
  // cannot open from memory (WAL needs shared memory): a copy marked rollback-journal opens.
  const image = Buffer.from(bytes);
  if (image[18] === 2 || image[19] === 2) image.set([1, 1], 18);
  const db = new Database(image);
  try {
    const tables = db
      .prepare(
        `SELECT c.table_name AS t, g.column_name AS col, g.srs_id AS srs, s.definition AS def
         FROM gpkg_contents c JOIN gpkg_geometry_columns g ON g.table_name = c.table_name
         LEFT JOIN gpkg_spatial_ref_sys s ON s.srs_id = g.srs_id
         WHERE c.data_type = 'features' ORDER BY c.table_name`,
      )
      .all() as Array<{ t: string; col: string; srs: number; def: string | null }>;
    if (tables.length === 0) throw new Error('the GeoPackage has no feature table');
    const count = makeCounter(limits);
    const features: RawFeature[] = [];
    let sourceCrs: string | null = null;
    for (const { t, col, srs, def } of tables) {
      let project: Project | null = null;
      if (srs !== 4326 && srs > 0 && def && def !== 'undefined' && !isWgs84(def)) {
        project = toWgs84(def);
        sourceCrs = crsName(def);
      }
      const pk = (
        db.prepare(`PRAGMA table_info(${quoteId(t)})`).all() as Array<{ name: string; pk: number }>
      )
        .filter((c) => c.pk > 0)
        .map((c) => c.name);
      for (const row of db.prepare(`SELECT * FROM ${quoteId(t)}`).iterate() as Iterable<
        Record<string, unknown>
      >) {
        const blob = row[col];
        let geometry: Geometry | null = null;
        let unreadable: string | undefined;
        try {
          geometry = blob instanceof Uint8Array ? readGpkgGeometry(blob) : null;
          if (geometry && project) geometry = mapPositions(geometry, project);
        } catch (e) {
          unreadable = (e as Error).message;
        }
        count(geometry);
        const properties: Record<string, Scalar> = {};
        for (const [k, v] of Object.entries(row)) {
          if (k === col || pk.includes(k)) continue;
          properties[k] =
            v === null || typeof v === 'string' || typeof v === 'number'
              ? v
              : typeof v === 'bigint'
                ? Number(v)
                : null;
        }
        features.push(unreadable ? { geometry, properties, unreadable } : { geometry, properties });
      }
    }
    return { features, sourceCrs };
  } finally {
    db.close();
  }
}
