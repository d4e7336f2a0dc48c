/**
 * A GeoPackage (OGC 12-128r18): a SQLite file, opened from memory with better-sqlite3 (which we
 * ship). Every feature table of gpkg_contents is read; a geometry blob is the GeoPackage header
 * ("GP", version, flags, srs_id, an optional envelope) and WKB. Geometries in another CRS than
 * WGS 84 are reprojected from gpkg_spatial_ref_sys's definition.
 *
 * Read as stored tables only, since a file is code as much as data: every table we read
 * (gpkg_contents and the others included) must be a plain table in `sqlite_schema` (a view is a
 * query the file chooses: an endless recursive one hung the importer, another yielded rows of
 * 100 MB from a 20 KB file), without generated columns (computed on read, the same way); the
 * database is opened read-only with `trusted_schema` off, so no trigger or function of the
 * file's runs. Each cell's size is asked of SQLite before its value is read (`length()` reads
 * the record header, not the value): one over `maxCellBytes` (`maxGeometryBytes` for the
 * geometry column) refuses the file.
 */
import Database from 'better-sqlite3';
import type { Geometry } from '@eo/domain';
import { readWkb } from '../geometry/wkb';
import { crsName, isWgs84, mapPositions, toWgs84, type Project } from '../geometry/reproject';
import type { ImportLimits } from '../limits';
import type { RawFeature } from '../types';
import type { Scalar } from '../write/feature';
import { LimitExceeded, makeCounter } from './counter';
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

const GPKG_TABLES = ['gpkg_contents', 'gpkg_geometry_columns', 'gpkg_spatial_ref_sys'];

/** Refuses `table` unless it is a stored table (not a view, virtual table or generated column). */
function checkStoredTable(db: Database.Database, table: string): void {
  const row = db
    .prepare<[string], { type: string; sql: string | null }>(
      'SELECT type, sql FROM sqlite_schema WHERE name = ? COLLATE NOCASE',
    )
    .get(table);
  if (!row) throw new Error(`gpkg_contents names ${JSON.stringify(table)}, which is not a table`);
  if (row.type !== 'table' || /^\s*CREATE\s+VIRTUAL\b/i.test(row.sql ?? ''))
    throw new Error(
      `${JSON.stringify(table)} is a ${row.type === 'table' ? 'virtual table' : row.type}: GeoPackages are read as stored tables only (a view's query is never run)`,
    );
  const columns = db.prepare(`PRAGMA table_xinfo(${quoteId(table)})`).all() as Array<{
    name: string;
    hidden: number;
  }>;
  const generated = columns.find((c) => c.hidden === 2 || c.hidden === 3);
  if (generated)
    throw new Error(
      `${JSON.stringify(table)} has a generated column (${generated.name}): GeoPackages are read as stored values only`,
    );
}

/** The rows of `table`: each cell's value, or its size in place of one over the limits. */
function cellChecked(
  db: Database.Database,
  table: string,
  geometryColumn: string,
  limits: ImportLimits,
): { columns: string[]; rows: Iterable<unknown[]> } {
  const columns = (
    db.prepare(`PRAGMA table_info(${quoteId(table)})`).all() as Array<{ name: string }>
  ).map((c) => c.name);
  // Per column: the value when it fits, and its length (bytes of text or blob) always.
  const picks = columns.flatMap((c) => {
    const max = c === geometryColumn ? limits.maxGeometryBytes : limits.maxCellBytes;
    const q = quoteId(c);
    return [
      `CASE WHEN length(CAST(${q} AS BLOB)) > ${max} THEN NULL ELSE ${q} END`,
      `length(CAST(${q} AS BLOB))`,
    ];
  });
  const stmt = db.prepare(`SELECT ${picks.join(', ')} FROM ${quoteId(table)}`).raw(true);
  return { columns, rows: stmt.iterate() as Iterable<unknown[]> };
}

export function readGeoPackage(bytes: Uint8Array, limits: ImportLimits): ReadResult {
  if (new TextDecoder().decode(bytes.subarray(0, 16)) !== SQLITE_MAGIC)
    throw new Error('not a GeoPackage (no SQLite header)');
  // QGIS and QField leave GeoPackages in WAL mode (header bytes 18 and 19 = 2), which SQLite
  // cannot open from memory (WAL needs shared memory): a copy marked rollback-journal opens.
  const image = Buffer.from(bytes);
  if (image[18] === 2 || image[19] === 2) image.set([1, 1], 18);
  const db = new Database(image, { readonly: true });
  try {
    // Nothing of the file's own code runs: no functions from its schema, no writes (no triggers).
    db.pragma('trusted_schema = OFF');
    db.pragma('query_only = ON');
    for (const t of GPKG_TABLES) checkStoredTable(db, t);
    const tables = db
      .prepare(
        `SELECT c.table_name AS t, g.column_name AS col, g.srs_id AS srs, s.definition AS def
         FROM gpkg_contents c JOIN gpkg_geometry_columns g ON g.table_name = c.table_name
         LEFT JOIN gpkg_spatial_ref_sys s ON s.srs_id = g.srs_id
         WHERE c.data_type = 'features' ORDER BY c.table_name`,
      )
      .all() as Array<{ t: string; col: string; srs: number; def: string | null }>;
    if (tables.length === 0) throw new Error('the GeoPackage has no feature table');
    for (const { t } of tables) checkStoredTable(db, t);
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
      const { columns, rows } = cellChecked(db, t, col, limits);
      for (const cells of rows) {
        const row: Record<string, unknown> = {};
        columns.forEach((name, i) => {
          const bytes = Number(cells[2 * i + 1] ?? 0);
          const max = name === col ? limits.maxGeometryBytes : limits.maxCellBytes;
          if (bytes > max)
            throw new LimitExceeded(
              `${JSON.stringify(t)}, row ${features.length + 1}: ${name} holds ${bytes} bytes; cells up to ${max} bytes are read`,
            );
          row[name] = cells[2 * i];
        });
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
