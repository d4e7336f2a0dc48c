/**
 * `importFile(name, bytes)`: any field format to a preview of features in WGS 84, each checked
 * as an area (`checkArea`). Pure apart from reading the bytes given: nothing is written and
 * nothing queued here; the caller queues what the user picked, all or nothing.
 *
 * Every failure of the file as a whole (unknown format, a parser's error, a limit) is a
 * `FormatError` naming the file; a feature that cannot be an area is not an error here but a
 * `problem` on that feature, so the preview can show it and the caller can refuse to queue.
 */
import { checkArea } from './geometry/area';
import { FormatError, reasonOf } from './errors';
import { IMPORT_LIMITS, type ImportLimits } from './limits';
import { readCsv } from './read/csv';
import { readGeoJson } from './read/geojson';
import { readGeoPackage } from './read/geopackage';
import type { ReadResult, Reader } from './read/reader';
import { readShapefileZip } from './read/shapefile';
import { readGpx, readKml, readKmz } from './read/xml';
import { entryParts } from './read/zip';
import type { ImportFormat, ImportPreview, PreviewFeature, RawFeature } from './types';
import type { Scalar } from './write/feature';

export interface ImportOptions {
  /** Force a format (else from the extension, then the first bytes). */
  readonly format?: ImportFormat | undefined;
  /** The attribute that names each feature (else name/Name/NAME/title/label/id). */
  readonly nameField?: string | undefined;
  readonly limits?: Partial<ImportLimits> | undefined;
}

const READERS: Record<ImportFormat, Reader> = {
  geojson: readGeoJson,
  kml: readKml,
  kmz: readKmz,
  gpx: readGpx,
  shapefile: readShapefileZip,
  geopackage: readGeoPackage,
  csv: readCsv,
};

/** Formats parsed from their whole text (`maxTextBytes`). */
const TEXT_FORMATS = new Set<ImportFormat>(['geojson', 'kml', 'gpx', 'csv']);

const BY_EXTENSION: Record<string, ImportFormat> = {
  geojson: 'geojson',
  json: 'geojson',
  kml: 'kml',
  kmz: 'kmz',
  gpx: 'gpx',
  zip: 'shapefile',
  shz: 'shapefile',
  gpkg: 'geopackage',
  csv: 'csv',
  tsv: 'csv',
  txt: 'csv',
};

/** The format of a file: its extension, else its first bytes. */
export function detectFormat(name: string, bytes: Uint8Array): ImportFormat | null {
  const byName = BY_EXTENSION[entryParts(name).ext];
  if (byName === 'shapefile' && zipHoldsKml(bytes)) return 'kmz';
  if (byName) return byName;
  const head = new TextDecoder()
    .decode(bytes.subarray(0, 512))
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) return zipHoldsKml(bytes) ? 'kmz' : 'shapefile';
  if (head.startsWith('SQLite format 3')) return 'geopackage';
  if (head.startsWith('{')) return 'geojson';
  if (/<kml[\s>]/.test(head)) return 'kml';
  if (/<gpx[\s>]/.test(head)) return 'gpx';
  return null;
}

/** A .kml name in the zip's central directory (read as text: names are stored uncompressed). */
function zipHoldsKml(bytes: Uint8Array): boolean {
  const tail = new TextDecoder('latin1').decode(bytes.subarray(Math.max(0, bytes.length - 65_536)));
  return /\.kml/i.test(tail) && !/\.shp/i.test(tail);
}

const NAME_FIELDS = ['name', 'Name', 'NAME', 'title', 'Title', 'label', 'LABEL', 'id', 'ID', 'fid'];

function nameOf(
  p: Readonly<Record<string, Scalar>>,
  field: string | undefined,
  fallback: string,
): string {
  const fields = field === undefined ? NAME_FIELDS : [field];
  for (const f of fields) {
    const v = p[f];
    if (v !== null && v !== undefined && String(v).trim() !== '')
      return String(v).trim().slice(0, 200);
  }
  return fallback;
}

function preview(
  file: string,
  raw: RawFeature,
  i: number,
  nameField: string | undefined,
): PreviewFeature {
  const base = file
    .split(/[\\/]/)
    .pop()!
    .replace(/\.[^.]*$/, '');
  const name = nameOf(raw.properties, nameField, `${base} ${i + 1}`);
  const checked = raw.unreadable
    ? { area: null, repairs: [], problem: `geometry unreadable: ${raw.unreadable}` }
    : checkArea(raw.geometry);
  return {
    index: i + 1,
    name,
    properties: raw.properties,
    geometry: raw.geometry,
    area: checked.area,
    repairs: checked.repairs,
    problem: checked.problem,
  };
}

export async function importFile(
  file: string,
  bytes: Uint8Array,
  options: ImportOptions = {},
): Promise<ImportPreview> {
  const limits: ImportLimits = { ...IMPORT_LIMITS, ...options.limits };
  if (bytes.length > limits.maxFileBytes)
    throw new FormatError(
      file,
      `${bytes.length} bytes: files up to ${limits.maxFileBytes} bytes are read`,
    );
  const format = options.format ?? detectFormat(file, bytes);
  if (!format && ['shp', 'dbf', 'shx', 'prj'].includes(entryParts(file).ext))
    throw new FormatError(
      file,
      'a part of a Shapefile alone: give the .zip of its .shp, .dbf and .prj (and .cpg) together',
    );
  if (!format)
    throw new FormatError(
      file,
      'unknown format (KML, KMZ, GPX, zipped Shapefile, GeoPackage, GeoJSON or CSV)',
    );
  if (TEXT_FORMATS.has(format) && bytes.length > limits.maxTextBytes)
    throw new FormatError(
      file,
      `${bytes.length} bytes of ${format}: text files up to ${limits.maxTextBytes} bytes are read`,
    );
  let read: ReadResult;
  try {
    read = await READERS[format](bytes, limits);
  } catch (e) {
    throw new FormatError(file, `cannot read it as ${format}: ${reasonOf(e)}`);
  }
  return importPreview(file, format, read, options);
}

/** A reader's result as the preview of `file` (every feature checked as an area). */
export function importPreview(
  file: string,
  format: ImportFormat,
  read: ReadResult,
  options: ImportOptions = {},
): ImportPreview {
  if (read.features.length === 0) throw new FormatError(file, 'no features');
  if (
    options.nameField !== undefined &&
    !read.features.some((f) => options.nameField! in f.properties)
  )
    throw new FormatError(
      file,
      `no attribute ${JSON.stringify(options.nameField)} to name features by`,
    );
  const features = read.features.map((f, i) => preview(file, f, i, options.nameField));
  return { file, format, sourceCrs: read.sourceCrs, features };
}
