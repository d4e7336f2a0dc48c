/**
 * GeoPackages (OGC 12-128r18) written with better-sqlite3: the required gpkg_spatial_ref_sys,
 * gpkg_contents and gpkg_geometry_columns, feature tables in WGS 84 (srs 4326) with a geometry
 * column of GeoPackage blobs (header with the xy envelope, then WKB), their declared geometry
 * type and extent, and an R-tree spatial index (`gpkg_rtree_index`); media tables related to a
 * feature table (the Related Tables Extension, `gpkgext_relations`), and other tables registered
 * under an extension of the caller's. QGIS and QField open the result as is.
 *
 * `makeGeoPackageWriter(db)` writes into a database the caller opened (a file for a large
 * package, streamed feature by feature); `toGeoPackage` builds a small export in memory and
 * hands back its bytes.
 */
import Database from 'better-sqlite3';
import type { Geometry } from '@eo/domain';
import { geometryBbox } from '@eo/domain';
import { writeWkb } from '../geometry/wkb';
import type { ExportFeature, Scalar } from './feature';
import {
  GEOMETRY_NAMES,
  promoteTo,
  schemaOf,
  type AttributeColumn,
  type LayerSchema,
} from './gpkg-schema';
import { quoteId } from './gpkg-names';
import { RTREE_TRIGGERS } from './gpkg-rtree';

const WGS84_WKT =
  'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AUTHORITY["EPSG","4326"]]';

export { quoteId };

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

/** What a feature layer holds once written. */
export interface WrittenLayer {
  readonly table: string;
  readonly count: number;
  readonly geometryType: string;
}

export interface FeatureLayerOptions {
  readonly description?: string | undefined;
  /** An R-tree spatial index (default true): QGIS and QField draw large layers with it. */
  readonly spatialIndex?: boolean | undefined;
}

/** A row of a media table: the bytes, their media type, and the other columns by name. */
export interface MediaRow {
  readonly data: Uint8Array;
  readonly contentType: string;
  readonly columns: Readonly<Record<string, Scalar>>;
}

/** A media table related to a feature table by equal values of one column each. */
export interface MediaRelation {
  /** The relation's name as a GIS shows it. */
  readonly name: string;
  readonly baseTable: string;
  readonly baseColumn: string;
  readonly mediaTable: string;
  readonly mediaColumn: string;
}

/** Binds the GeoPackage writers to `db`, a fresh database the caller owns and closes. */
export function makeGeoPackageWriter(db: Database.Database) {
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
    CREATE TABLE gpkg_extensions (table_name TEXT, column_name TEXT, extension_name TEXT NOT NULL,
      definition TEXT NOT NULL, scope TEXT NOT NULL,
      CONSTRAINT ge_tce UNIQUE (table_name, column_name, extension_name));
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
  const extension = db.prepare('INSERT OR IGNORE INTO gpkg_extensions VALUES (?, ?, ?, ?, ?)');
  const contents = db.prepare(
    `INSERT INTO gpkg_contents (table_name, data_type, identifier, description, srs_id)
     VALUES (?, ?, ?, ?, ?)`,
  );

  return {
    /**
     * A feature table `table` of `schema` (its columns named after their keys, suffixed where a name
     * collides with `fid`, `geom` or another ignoring case), filled from `features` in one
     * transaction. Returns its count and declared geometry type.
     */
    featureLayer(
      table: string,
      { columns, geometryType }: LayerSchema,
      features: Iterable<ExportFeature>,
      options: FeatureLayerOptions = {},
    ): WrittenLayer {
      const taken = new Set(['fid', 'geom']);
      const named = columns.map((c) => {
        let name = c.key;
        for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${c.key}_${n}`;
        taken.add(name.toLowerCase());
        return { ...c, name };
      });
      db.exec(
        `CREATE TABLE ${quoteId(table)} (fid INTEGER PRIMARY KEY AUTOINCREMENT, geom ${geometryType}${named
          .map((c) => `, ${quoteId(c.name)} ${c.type}`)
          .join('')})`,
      );
      const insert = db.prepare(
        `INSERT INTO ${quoteId(table)} (geom${named.map((c) => `, ${quoteId(c.name)}`).join('')}) VALUES (?${', ?'.repeat(named.length)})`,
      );
      const indexed = options.spatialIndex !== false;
      const rtree = quoteId(`rtree_${table}_geom`);
      if (indexed) db.exec(`CREATE VIRTUAL TABLE ${rtree} USING rtree(id, minx, maxx, miny, maxy)`);
      const index = indexed ? db.prepare(`INSERT INTO ${rtree} VALUES (?, ?, ?, ?, ?)`) : null;
      let count = 0;
      const bounds = [Infinity, Infinity, -Infinity, -Infinity];
      db.transaction(() => {
        for (const f of features) {
          const values = named.map((c) => {
            const v = f.properties[c.key];
            return typeof v === 'boolean' ? (v ? 1 : 0) : (v ?? null);
          });
          const geometry = f.geometry ? promoteTo(f.geometry, geometryType) : null;
          const blob = geometry ? Buffer.from(gpkgGeometry(geometry)) : null;
          const { lastInsertRowid } = insert.run(blob, ...values);
          count++;
          if (!geometry) continue;
          const type = GEOMETRY_NAMES[geometry.type];
          if (geometryType !== 'GEOMETRY' && type !== geometryType)
            throw new TypeError(`${table}: a ${type} in a layer of ${geometryType}`);
          const b = geometryBbox(geometry);
          if (!b) continue;
          bounds[0] = Math.min(bounds[0]!, b[0]);
          bounds[1] = Math.min(bounds[1]!, b[1]);
          bounds[2] = Math.max(bounds[2]!, b[2]);
          bounds[3] = Math.max(bounds[3]!, b[3]);
          index?.run(lastInsertRowid, b[0], b[2], b[1], b[3]);
        }
      })();
      contents.run(table, 'features', table, options.description ?? '', 4326);
      if (Number.isFinite(bounds[0]))
        db.prepare(
          'UPDATE gpkg_contents SET min_x = ?, min_y = ?, max_x = ?, max_y = ? WHERE table_name = ?',
        ).run(...bounds, table);
      db.prepare(`INSERT INTO gpkg_geometry_columns VALUES (?, 'geom', ?, 4326, 0, 0)`).run(
        table,
        geometryType,
      );
      if (indexed) {
        for (const sql of RTREE_TRIGGERS) db.exec(sql(table, 'geom', 'fid'));
        extension.run(
          table,
          'geom',
          'gpkg_rtree_index',
          'http://www.geopackage.org/spec120/#extension_rtree',
          'write-only',
        );
      }
      return { table, count, geometryType };
    },

    /**
     * A media table (Related Tables Extension: `id`, `data`, `content_type`, then `columns`),
     * filled from `rows` in one transaction; returns how many rows it holds.
     */
    mediaTable(
      table: string,
      columns: readonly AttributeColumn[],
      rows: Iterable<MediaRow>,
      description = '',
    ): number {
      db.exec(
        `CREATE TABLE ${quoteId(table)} (id INTEGER PRIMARY KEY AUTOINCREMENT,
           data BLOB NOT NULL, content_type TEXT NOT NULL${columns
             .map((c) => `, ${quoteId(c.key)} ${c.type}`)
             .join('')})`,
      );
      const insert = db.prepare(
        `INSERT INTO ${quoteId(table)} (data, content_type${columns.map((c) => `, ${quoteId(c.key)}`).join('')}) VALUES (?, ?${', ?'.repeat(columns.length)})`,
      );
      let count = 0;
      db.transaction(() => {
        for (const r of rows) {
          const values = columns.map((c) => {
            const v = r.columns[c.key];
            return typeof v === 'boolean' ? (v ? 1 : 0) : (v ?? null);
          });
          insert.run(
            Buffer.from(r.data.buffer, r.data.byteOffset, r.data.byteLength),
            r.contentType,
            ...values,
          );
          count++;
        }
      })();
      contents.run(table, 'attributes', table, description, null);
      return count;
    },

    /**
     * Relates a media table to a feature table (`gpkgext_relations`, relation `media`): a
     * mapping table of the pairs whose two columns are equal, built by the database.
     */
    relateMedia(r: MediaRelation): number {
      db.exec(`CREATE TABLE IF NOT EXISTS gpkgext_relations (id INTEGER PRIMARY KEY AUTOINCREMENT,
        base_table_name TEXT NOT NULL, base_primary_column TEXT NOT NULL DEFAULT 'id',
        related_table_name TEXT NOT NULL, related_primary_column TEXT NOT NULL DEFAULT 'id',
        relation_name TEXT NOT NULL, mapping_table_name TEXT NOT NULL UNIQUE)`);
      const mapping = `${r.baseTable}_${r.mediaTable}`;
      db.exec(
        `CREATE TABLE ${quoteId(mapping)} (id INTEGER PRIMARY KEY AUTOINCREMENT,
           base_id INTEGER NOT NULL, related_id INTEGER NOT NULL);
         CREATE INDEX ${quoteId(`${mapping}_media`)} ON ${quoteId(r.mediaTable)} (${quoteId(r.mediaColumn)});
         INSERT INTO ${quoteId(mapping)} (base_id, related_id)
           SELECT b.fid, m.id FROM ${quoteId(r.baseTable)} b
           JOIN ${quoteId(r.mediaTable)} m ON m.${quoteId(r.mediaColumn)} = b.${quoteId(r.baseColumn)}
           ORDER BY b.fid, m.id;`,
      );
      db.prepare(
        `INSERT INTO gpkgext_relations (base_table_name, base_primary_column, related_table_name,
           related_primary_column, relation_name, mapping_table_name)
         VALUES (?, 'fid', ?, 'id', 'media', ?)`,
      ).run(r.baseTable, r.mediaTable, mapping);
      contents.run(mapping, 'attributes', mapping, r.name, null);
      const rte = 'http://www.geopackage.org/18-000.html';
      extension.run('gpkgext_relations', null, 'related_tables', rte, 'read-write');
      extension.run(mapping, null, 'related_tables', rte, 'read-write');
      return db
        .prepare(`SELECT count(*) FROM ${quoteId(mapping)}`)
        .pluck()
        .get() as number;
    },

    /**
     * Registers a table the caller made under its own extension (`gpkg_extensions`; the name is
     * `<author>_<extension>`): a GeoPackage may carry such tables, and GIS software leaves
     * them alone.
     */
    registerExtensionTable(table: string, extensionName: string, definition: string): void {
      extension.run(table, null, extensionName, definition, 'read-write');
    },
  };
}

export type GeoPackageWriter = ReturnType<typeof makeGeoPackageWriter>;

/** One feature table in memory, as a GeoPackage's bytes (an export of a few thousand features). */
export function toGeoPackage(features: readonly ExportFeature[], table = 'features'): Uint8Array {
  const db = new Database(':memory:');
  try {
    makeGeoPackageWriter(db).featureLayer(table, schemaOf(features), features, {
      spatialIndex: false,
    });
    const serialized = db.serialize();
    return new Uint8Array(serialized.buffer, serialized.byteOffset, serialized.byteLength);
  } finally {
    db.close();
  }
}
