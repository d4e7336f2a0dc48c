/**
 * How catalog SQL reads each table layout (`table.ts`): where the whole record and the
 * footprint come from, and which record properties have a column of their own. The search SQL
 * (`search-sql.ts`), the writers and the readers take a layout; the service uses the JSON one,
 * the mirror the compact one.
 */

export interface CatalogLayout {
  readonly name: 'json' | 'compact';
  /** The record's JSON text of row `c` (what a `query` / `sort_by` on any other path reads). */
  readonly recordSql: string;
  /** The footprint of row `c` that `eo_intersects` tests (JSON text or geometry BLOB). */
  readonly geometrySql: string;
  /**
   * `details.properties` keys with a number column: it holds the value when the writer could
   * read it as a number (NULL otherwise; other types stay in the record).
   */
  readonly numberColumns: ReadonlyMap<string, string>;
  /** `details.properties` keys with a text column: it holds the value when it is a string. */
  readonly textColumns: ReadonlyMap<string, string>;
  /**
   * Every record of a store in this layout belongs to one organisation (the mirror's), so a
   * search's organisation term matches every row. The search SQL tells SQLite so
   * (`compileCatalogSql`, where the why and its figures are).
   */
  readonly oneOrganisation: boolean;
}

// Maps, not object literals: keys come from requests, and a plain object answers
// `constructor`, `toString` or `__proto__` with an inherited member (whose text ended in SQL).
const NUMBER_COLUMNS: ReadonlyArray<[string, string]> = [
  ['eo:cloud_cover', 'c.cloud_cover'],
  ['view:off_nadir', 'c.off_nadir'],
  ['gsd', 'c.gsd'],
];

/** The service's: the record as JSON text in `record_json`. */
export const JSON_LAYOUT: CatalogLayout = {
  name: 'json',
  recordSql: 'c.record_json',
  geometrySql: `json_extract(c.record_json, '$.details.geometry')`,
  numberColumns: new Map(NUMBER_COLUMNS),
  textColumns: new Map(),
  oneOrganisation: false,
};

/**
 * The columns a packed record is decoded with (`compact/record-blob.ts`), in the order of the
 * arguments of `eo_catalog_record` after the blob.
 */
export const RECORD_CONTEXT_COLUMNS = [
  'id',
  'item_id',
  'created_at_us',
  'updated_at_us',
  'datetime_us',
  'geometry',
] as const;

/** The mirror's: the record packed in `record`, read through `eo_catalog_record` (`records.ts`). */
export const COMPACT_LAYOUT: CatalogLayout = {
  name: 'compact',
  recordSql: `eo_catalog_record(c.record, ${RECORD_CONTEXT_COLUMNS.map((n) => `c.${n}`).join(', ')})`,
  geometrySql: 'c.geometry',
  numberColumns: new Map([...NUMBER_COLUMNS, ['view:sun_elevation', 'c.sun_elevation']]),
  textColumns: new Map([['platform', 'c.platform']]),
  oneOrganisation: true,
};
