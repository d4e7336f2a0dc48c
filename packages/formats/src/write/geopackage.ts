/**
 * A GeoPackage (OGC 12-128r18) of export features, built in an in-memory SQLite database with
 * better-sqlite3 and handed back as its bytes: the required gpkg_spatial_ref_sys,
 * gpkg_contents and gpkg_geometry_columns, one feature table in WGS 84 (srs 4326) with a
 * geometry column of GeoPackage blobs (header with the xy envelope, then WKB) and one column
 * per attribute (INTEGER, REAL or TEXT by its values). QGIS and QField open it as is.
 */
import Database from 'better-sqlite3';
import type { Geometry } from '@eo/domain';
import { geometryBbox } from '@eo/domain';
import { writeWkb } from '../geometry/wkb';
import type { ExportFeature, Scalar } from './feature';

const WGS84_WKT =
  'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AUTHORITY["EPSG","4326"]]';

const quoteId = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The GeoPackage blob of a geometry: little-endian header with its envelope, then WKB. */
export function gpkgGeometry(g: Geometry): Uint8Array {
  const wkb = writeWkb(g);
  const out = new Uint8Array(8 + 32 + wkb.length);
  const view = new DataView(out.buffer);
  out.set([0x47, 0x50, 0, 0b0000_0011]); // "GP", version 1 (0), xy envelope, little-endian
  view.setInt32(4, 4326, true);
  const b = geometryBbox(g) ?? [0, 0, 0, 0];
  [b[0], b[2], b[1], b[3]].forEach((v, i) => view.setFloat64(8 + i * 8, v, true));
  out.set(wkb, 40);
  return out;
}

function sqlType(values: readonly Scalar[]): string {
  const set = values.filter((v) => v !== null);
  if (set.length > 0 && set.every((v) => typeof v === 'number' && Number.isInteger(v)))
    return 'INTEGER';
  if (set.length > 0 && set.every((v) => typeof v === 'number')) return 'REAL';
  if (set.length > 0 && set.every((v) => typeof v === 'boolean')) return 'BOOLEAN';
  return 'TEXT';
}

export function toGeoPackage(features: readonly ExportFeature[], table = 'features'): Uint8Array {
  const db = new Database(':memory:');
  try {
    db.pragma('application_id = 1196444487'); // "GPKG"
    db.pragma('user_version = 10300');
    db.exec(`
      CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id INTEGER PRIMARY KEY,
        organization TEXT NOT NULL, organization_coordsys_id INTEGER NOT NULL,
        definition TEXT NOT NULL, description TEXT);
      CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL,
        identifier TEXT UNIQUE, description TEXT DEFAULT '',
        last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
        min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER);
      CREATE TABLE gpkg_geometry_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL,
        geometry_type_name TEXT NOT NULL, srs_id INTEGER NOT NULL, z TINYINT NOT NULL,
        m TINYINT NOT NULL, CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name));
    `);
    const srs = db.prepare('INSERT INTO gpkg_spatial_ref_sys VALUES (?, ?, ?, ?, ?, ?)');
    srs.run('Undefined cartesian SRS', -1, 'NONE', -1, 'undefined', null);
    srs.run('Undefined geographic SRS', 0, 'NONE', 0, 'undefined', null);
    srs.run(
      'WGS 84 geodetic',
      4326,
      'EPSG',
      4326,
      WGS84_WKT,
      'longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid',
    );
    const keys: string[] = [];
    for (const f of features)
      for (const k of Object.keys(f.properties)) if (!keys.includes(k)) keys.push(k);
    // Attribute names that collide with ours (fid, geom) or each other ignoring case get a suffix.
    const taken = new Set(['fid', 'geom']);
    const columns = keys.map((key) => {
      let name = key;
      for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${key}_${n}`;
      taken.add(name.toLowerCase());
      return { key, name, type: sqlType(features.map((f) => f.properties[key] ?? null)) };
    });
    db.exec(
      `CREATE TABLE ${quoteId(table)} (fid INTEGER PRIMARY KEY AUTOINCREMENT, geom GEOMETRY${columns
        .map((c) => `, ${quoteId(c.name)} ${c.type}`)
        .join('')})`,
    );
    db.prepare(
      `INSERT INTO gpkg_contents (table_name, data_type, identifier, srs_id) VALUES (?, 'features', ?, 4326)`,
    ).run(table, table);
    db.prepare(`INSERT INTO gpkg_geometry_columns VALUES (?, 'geom', 'GEOMETRY', 4326, 0, 0)`).run(
      table,
    );
    const insert = db.prepare(
      `INSERT INTO ${quoteId(table)} (geom${columns.map((c) => `, ${quoteId(c.name)}`).join('')}) VALUES (?${', ?'.repeat(columns.length)})`,
    );
    db.transaction(() => {
      for (const f of features) {
        const values = columns.map((c) => {
          const v = f.properties[c.key];
          return typeof v === 'boolean' ? (v ? 1 : 0) : (v ?? null);
        });
        insert.run(f.geometry ? Buffer.from(gpkgGeometry(f.geometry)) : null, ...values);
      }
    })();
    const serialized = db.serialize();
    return new Uint8Array(serialized.buffer, serialized.byteOffset, serialized.byteLength);
  } finally {
    db.close();
  }
}
