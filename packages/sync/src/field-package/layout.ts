/**
 * The layout of a field package beyond what GIS software reads (README.md, "Field packages"):
 * `eo_package` (the manifest, as JSON), `eo_records` (every record as the service sent it, by
 * resource and id, with its change time in µs) and the `quicklooks` media table, whose rows
 * hold the pictures with what the mirror keeps beside them. Written by `write.ts`, checked
 * column by column by `read.ts` before anything is read from them.
 */
import { FIELD_PACKAGE_EXTENSION, FIELD_PACKAGE_PICTURES } from '@eo/domain';
import type { AttributeColumn } from '@eo/formats/geopackage';

export const MANIFEST_TABLE = 'eo_package';
export const RECORDS_TABLE = 'eo_records';
export const PICTURES_TABLE = FIELD_PACKAGE_PICTURES;
export const RASTERS_TABLE = 'eo_rasters';
export const RASTER_PARTS_TABLE = 'eo_raster_parts';

/** Where the extension's tables are described (`gpkg_extensions.definition`). */
export const EXTENSION_DEFINITION =
  'EO Field Desk field package: packages/sync/README.md, "Field packages"';
export { FIELD_PACKAGE_EXTENSION };

export const MANIFEST_DDL = `CREATE TABLE ${MANIFEST_TABLE} (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)`;

export const RECORDS_DDL = `CREATE TABLE ${RECORDS_TABLE} (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  resource TEXT NOT NULL,
  record_id TEXT NOT NULL,
  updated_at_us INTEGER,
  json TEXT NOT NULL,
  UNIQUE (resource, record_id))`;

export const RASTERS_DDL = `CREATE TABLE ${RASTERS_TABLE} (id INTEGER PRIMARY KEY AUTOINCREMENT,
  record_id TEXT NOT NULL, name TEXT NOT NULL, media_type TEXT NOT NULL,
  bytes INTEGER NOT NULL, sha256 TEXT NOT NULL, row_json TEXT NOT NULL, UNIQUE (record_id, name));
  CREATE TABLE ${RASTER_PARTS_TABLE} (raster_id INTEGER NOT NULL, part INTEGER NOT NULL,
  data BLOB NOT NULL, PRIMARY KEY (raster_id, part))`;

/** The pictures' own columns, after the media table's `id`, `data` and `content_type`. */
export const PICTURE_COLUMNS: readonly AttributeColumn[] = [
  { key: 'record_id', type: 'TEXT' },
  { key: 'variant', type: 'TEXT' },
  { key: 'bytes', type: 'INTEGER' },
  { key: 'sha256', type: 'TEXT' },
  { key: 'aoi_id', type: 'TEXT' },
  { key: 'legend_json', type: 'TEXT' },
];

/** Each table a reader takes from a package, with its columns exactly (name and type). */
export const EXPECTED_COLUMNS: Readonly<Record<string, ReadonlyArray<[string, string]>>> = {
  [MANIFEST_TABLE]: [
    ['key', 'TEXT'],
    ['value', 'TEXT'],
  ],
  [RECORDS_TABLE]: [
    ['id', 'INTEGER'],
    ['resource', 'TEXT'],
    ['record_id', 'TEXT'],
    ['updated_at_us', 'INTEGER'],
    ['json', 'TEXT'],
  ],
  [PICTURES_TABLE]: [
    ['id', 'INTEGER'],
    ['data', 'BLOB'],
    ['content_type', 'TEXT'],
    ...PICTURE_COLUMNS.map((c): [string, string] => [c.key, c.type]),
  ],
  [RASTERS_TABLE]: [
    ['id', 'INTEGER'],
    ['record_id', 'TEXT'],
    ['name', 'TEXT'],
    ['media_type', 'TEXT'],
    ['bytes', 'INTEGER'],
    ['sha256', 'TEXT'],
    ['row_json', 'TEXT'],
  ],
  [RASTER_PARTS_TABLE]: [
    ['raster_id', 'INTEGER'],
    ['part', 'INTEGER'],
    ['data', 'BLOB'],
  ],
};

/** Tables a package may lack (written by later layouts, or left out). */
export const OPTIONAL_TABLES: ReadonlySet<string> = new Set([
  PICTURES_TABLE,
  RASTERS_TABLE,
  RASTER_PARTS_TABLE,
]);
