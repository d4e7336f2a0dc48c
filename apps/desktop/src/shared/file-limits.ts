/**
 * The size of a field file the desktop previews (`files.preview`) and the extensions it takes,
 * without zod: browser mode's server sizes its request bodies with them before the contract's
 * schemas are loaded.
 */

/**
 * Bytes of one file. Below `@eo/formats`' own 256 MB: the file crosses the bridge as base64 (a
 * third larger) in one message, and 64 MB holds a 100,000-parcel Shapefile zip (~50 MB).
 */
export const MAX_IMPORT_FILE_BYTES = 64 * 1024 * 1024;
/** The base64 text of a file at the limit. */
export const MAX_IMPORT_BASE64_CHARS = Math.ceil(MAX_IMPORT_FILE_BYTES / 3) * 4;

/** What the file picker offers (what `@eo/formats` detects by name). */
export const IMPORT_FILE_EXTENSIONS = [
  '.kml',
  '.kmz',
  '.gpx',
  '.zip',
  '.gpkg',
  '.geojson',
  '.json',
  '.csv',
] as const;

/** The formats behind those extensions, as a field team names them (hints and messages). */
export const IMPORT_FILE_KINDS = 'KML, KMZ, GPX, zipped Shapefile, GeoPackage, GeoJSON or CSV';

/** Characters of an area typed or pasted (`files.typedArea`): `@eo/formats`' own bound. */
export const MAX_TYPED_AREA_CHARS = 512 * 1024;
