/**
 * Opening a field package that came from another laptop, which is not trusted: a copy cut short
 * on a pulled stick, a damaged card, a plain GeoPackage, or a file made to hurt. Before a record
 * is read the file must be a whole SQLite database of the size its header says (a truncated copy
 * is named as such), a GeoPackage, and hold our tables as tables (never views: a view's query
 * would run) with exactly our columns; the manifest must parse and be of a layout this reader
 * knows. Reads go through plain SELECTs on those tables, a bounded chunk at a time, with every
 * value's size checked before it is taken (`FIELD_PACKAGE_LIMITS`); the schema's functions are
 * not trusted, nothing is ever written. Any refusal is a `PackageError` saying what is wrong.
 */
import fs from 'node:fs';
import {
  FIELD_PACKAGE_FORMAT,
  FIELD_PACKAGE_LIMITS,
  FIELD_PACKAGE_RESOURCES,
  FIELD_PACKAGE_VERSION,
  FieldPackageManifest,
  type FieldPackageResource,
} from '@eo/domain';
import Database from 'better-sqlite3';
import {
  EXPECTED_COLUMNS,
  MANIFEST_TABLE,
  OPTIONAL_TABLES,
  PICTURES_TABLE,
  RASTER_PARTS_TABLE,
  RASTERS_TABLE,
  RECORDS_TABLE,
} from './layout';
import type { RasterFile } from './pixels';

/** The package cannot be taken in; the message says why (and nothing was changed). */
export class PackageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PackageError';
  }
}

const GPKG_APPLICATION_ID = 1196444487;
const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const mb = (n: number) => `${(n / 1024 ** 2).toFixed(1)} MB`;

/** The header's word on the file's size: refuses what is not a whole SQLite database. */
function checkHeader(file: string, size: number): void {
  if (size < 512) throw new PackageError('not a field package: the file is too small');
  const head = Buffer.alloc(100);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, head, 0, 100, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (!head.subarray(0, 16).equals(SQLITE_MAGIC))
    throw new PackageError('not a field package: the file is not a GeoPackage (no SQLite header)');
  const rawPage = head.readUInt16BE(16);
  const pageSize = rawPage === 1 ? 65536 : rawPage;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0)
    throw new PackageError('the package is damaged: its header names no valid page size');
  if (head[18] !== 1 || head[19] !== 1)
    throw new PackageError(
      'the package was left in write-ahead mode by the program that last saved it: save it again from that program, or export a new package',
    );
  // The in-header size is valid when "version-valid-for" matches the change counter.
  const pages = head.readUInt32BE(28);
  if (pages === 0 || head.readUInt32BE(92) !== head.readUInt32BE(24))
    throw new PackageError('the package is damaged: its header does not give its size');
  const expected = pages * pageSize;
  if (expected > size)
    throw new PackageError(
      `the package is truncated: ${mb(size)} of ${mb(expected)} were copied. Copy it again (a copy onto a stick resumes where it stopped)`,
    );
  if (expected < size)
    throw new PackageError(`the package is damaged: ${size - expected} bytes follow its end`);
}

const same = (a: ReadonlyArray<readonly [string, string]>, b: ReadonlyArray<[string, string]>) =>
  a.length === b.length && a.every(([n, t], i) => n === b[i]![0] && t === b[i]![1]);

/** Our tables are tables with exactly our columns (no view, no hidden or generated column). */
function checkTables(db: Database.Database): void {
  const kinds = new Map(
    db
      .prepare<[], { name: string; type: string }>(
        `SELECT name, type FROM sqlite_schema WHERE name IN (${Object.keys(EXPECTED_COLUMNS)
          .map((n) => `'${n}'`)
          .join(', ')})`,
      )
      .all()
      .map((r) => [r.name, r.type]),
  );
  if (!kinds.has(MANIFEST_TABLE) || !kinds.has(RECORDS_TABLE))
    throw new PackageError(
      'not a field package: a GeoPackage without the tables of EO Field Desk (to take its areas, import it as a field file)',
    );
  for (const [name, columns] of Object.entries(EXPECTED_COLUMNS)) {
    const kind = kinds.get(name);
    if (kind === undefined && OPTIONAL_TABLES.has(name)) continue;
    if (kind !== 'table')
      throw new PackageError(`the package is not of our making: ${name} is a ${kind ?? 'gap'}`);
    const found = db
      .prepare<[string], { name: string; type: string; hidden: number }>(
        'SELECT name, type, hidden FROM pragma_table_xinfo(?)',
      )
      .all(name);
    if (
      found.some((c) => c.hidden !== 0) ||
      !same(
        columns,
        found.map((c) => [c.name, c.type]),
      )
    )
      throw new PackageError(`the package is not of our making: ${name} has other columns`);
  }
}

function readManifest(db: Database.Database): FieldPackageManifest {
  const row = db
    .prepare<[number], { kind: string; n: number; value: string | null }>(
      `SELECT typeof(value) AS kind, octet_length(value) AS n,
         CASE WHEN typeof(value) = 'text' AND octet_length(value) <= ? THEN value END AS value
       FROM ${MANIFEST_TABLE} WHERE key = 'manifest'`,
    )
    .get(FIELD_PACKAGE_LIMITS.maxManifestBytes);
  if (!row || row.value === null)
    throw new PackageError('not a field package: its description is missing or too large');
  let json: unknown;
  try {
    json = JSON.parse(row.value);
  } catch {
    throw new PackageError('the package is damaged: its description is not JSON');
  }
  const format = (json as { format?: unknown } | null)?.format;
  if (format !== FIELD_PACKAGE_FORMAT)
    throw new PackageError(`not a field package: its format is ${JSON.stringify(format)}`);
  const version = (json as { version?: unknown }).version;
  if (typeof version === 'number' && version > FIELD_PACKAGE_VERSION)
    throw new PackageError(
      `the package was made by a newer EO Field Desk (layout ${version}; this one reads ${FIELD_PACKAGE_VERSION}): update this laptop's`,
    );
  const parsed = FieldPackageManifest.safeParse(json);
  if (!parsed.success)
    throw new PackageError(
      `the package's description is not valid: ${parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
        .join('; ')}`,
    );
  return parsed.data;
}

interface PictureParams {
  maxBytes: number;
  after: number;
  maxId: number;
  chunk: number;
}

/** One record of the package, checked for shape and size. */
export interface PackageRecord {
  readonly resource: FieldPackageResource;
  readonly recordId: string;
  readonly json: string;
}

/** One picture of the package, checked for size (its bytes are checked by the merge). */
export interface PackagePicture {
  readonly recordId: string;
  readonly variant: string;
  readonly data: Buffer;
  readonly sha256: string;
  readonly aoiId: string | null;
  readonly legendJson: string | null;
}

export interface OpenedPackage {
  readonly manifest: FieldPackageManifest;
  readonly bytes: number;
  /** Records in stored order, `chunk` at a time (each checked; a bad one throws). */
  records(chunk?: number): Generator<PackageRecord[]>;
  pictures(chunk?: number): Generator<PackagePicture[]>;
  /** The rasters it carries, each with its parts in order (read one part at a time). */
  rasters(): Generator<{ file: RasterFile; parts: () => Generator<Buffer> }>;
  counts(): { records: number; pictures: number };
  close(): void;
}

/** SQLite's own word on a damaged file, as the refusal a person reads. */
function damaged<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof PackageError) throw e;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('SQLITE_'))
      throw new PackageError(`the package is damaged (${(e as Error).message}): copy it again`);
    throw e;
  }
}

const RESOURCES: ReadonlySet<string> = new Set(FIELD_PACKAGE_RESOURCES);
const { maxIdChars, maxRecordBytes, maxPictureBytes, maxRecords, maxPictures } =
  FIELD_PACKAGE_LIMITS;

export function openFieldPackage(file: string): OpenedPackage {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new PackageError(`no file at ${file}`);
  }
  if (!stat.isFile()) throw new PackageError(`${file} is not a file`);
  if (stat.size > FIELD_PACKAGE_LIMITS.maxFileBytes)
    throw new PackageError(`the package is larger than ${mb(FIELD_PACKAGE_LIMITS.maxFileBytes)}`);
  checkHeader(file, stat.size);
  const db = damaged(() => new Database(file, { readonly: true, fileMustExist: true }));
  try {
    return damaged(() => {
      db.pragma('trusted_schema = OFF');
      db.pragma('query_only = ON');
      db.pragma('cell_size_check = ON');
      if (db.pragma('application_id', { simple: true }) !== GPKG_APPLICATION_ID)
        throw new PackageError(
          'not a field package: the file is a SQLite database, not a GeoPackage',
        );
      checkTables(db);
      const manifest = readManifest(db);
      return opened(db, manifest, stat.size);
    });
  } catch (e) {
    db.close();
    throw e;
  }
}

function opened(
  db: Database.Database,
  manifest: FieldPackageManifest,
  bytes: number,
): OpenedPackage {
  const has = (table: string) =>
    db.prepare("SELECT 1 FROM sqlite_schema WHERE name = ? AND type = 'table'").get(table) !==
    undefined;
  const hasPictures = has(PICTURES_TABLE);
  const hasRasters = has(RASTERS_TABLE) && has(RASTER_PARTS_TABLE);
  const recordChunk = db.prepare<[number, number, number, number], Record<string, unknown>>(
    `SELECT id, typeof(resource) AS rt, CASE WHEN length(resource) <= 32 THEN resource END AS resource,
       CASE WHEN length(record_id) <= ? THEN record_id END AS record_id,
       typeof(json) AS jt, CASE WHEN octet_length(json) <= ? THEN json END AS json
     FROM ${RECORDS_TABLE} WHERE id > ? ORDER BY id LIMIT ?`,
  );
  const pictureChunk = hasPictures
    ? db.prepare<PictureParams, Record<string, unknown>>(
        `SELECT id, CASE WHEN length(record_id) <= @maxId THEN record_id END AS record_id,
           CASE WHEN length(variant) <= 64 THEN variant END AS variant,
           CASE WHEN length(sha256) <= 64 THEN sha256 END AS sha256,
           CASE WHEN length(aoi_id) <= @maxId THEN aoi_id END AS aoi_id,
           CASE WHEN length(legend_json) <= 65536 THEN legend_json END AS legend_json,
           typeof(data) AS dt, CASE WHEN octet_length(data) <= @maxBytes THEN data END AS data
         FROM ${PICTURES_TABLE} WHERE id > @after ORDER BY id LIMIT @chunk`,
      )
    : null;
  const text = (v: unknown, max: number, what: string): string => {
    if (typeof v !== 'string' || v.length === 0 || v.length > max)
      throw new PackageError(`the package is damaged: ${what} is missing or too long`);
    return v;
  };
  return {
    manifest,
    bytes,
    counts: () =>
      damaged(() => {
        const records = db.prepare(`SELECT count(*) FROM ${RECORDS_TABLE}`).pluck().get() as number;
        const pictures = hasPictures
          ? (db.prepare(`SELECT count(*) FROM ${PICTURES_TABLE}`).pluck().get() as number)
          : 0;
        if (records > maxRecords)
          throw new PackageError(`the package holds ${records} records, more than ${maxRecords}`);
        if (pictures > maxPictures)
          throw new PackageError(
            `the package holds ${pictures} pictures, more than ${maxPictures}`,
          );
        return { records, pictures };
      }),
    *records(chunk = 500) {
      yield* chunked(
        (after) => recordChunk.iterate(maxIdChars, maxRecordBytes, after, chunk),
        (r) => {
          const at = r.id as number;
          if (r.rt !== 'text' || !RESOURCES.has(r.resource as string))
            throw new PackageError(`the package is damaged: record ${at} is of no known resource`);
          const recordId = text(r.record_id, maxIdChars, `the id of record ${at}`);
          if (r.jt !== 'text' || r.json === null)
            throw new PackageError(
              `record ${recordId} of the package is ${r.jt !== 'text' ? 'not text' : `larger than ${mb(maxRecordBytes)}`}`,
            );
          const json = r.json as string;
          return { resource: r.resource as FieldPackageResource, recordId, json };
        },
        (r) => r.json.length,
      );
    },
    *pictures(chunk = 50) {
      if (!pictureChunk) return;
      yield* chunked(
        (after) =>
          pictureChunk.iterate({ maxBytes: maxPictureBytes, after, maxId: maxIdChars, chunk }),
        (r) => {
          const at = r.id as number;
          if (r.dt !== 'blob' || !(r.data instanceof Buffer))
            throw new PackageError(
              `picture ${at} of the package is ${r.dt !== 'blob' ? 'not bytes' : `larger than ${mb(maxPictureBytes)}`}`,
            );
          return {
            recordId: text(r.record_id, maxIdChars, `the record of picture ${at}`),
            variant: text(r.variant, 64, `the variant of picture ${at}`),
            data: r.data,
            sha256: text(r.sha256, 64, `the hash of picture ${at}`),
            aoiId: typeof r.aoi_id === 'string' ? r.aoi_id : null,
            legendJson: typeof r.legend_json === 'string' ? r.legend_json : null,
          };
        },
        (p) => p.data.length,
      );
    },
    *rasters() {
      if (!hasRasters) return;
      const list = damaged(() =>
        db
          .prepare<{ maxId: number }, Record<string, unknown>>(
            `SELECT id, CASE WHEN length(record_id) <= @maxId THEN record_id END AS record_id,
               CASE WHEN length(name) <= @maxId THEN name END AS name,
               CASE WHEN length(media_type) <= 256 THEN media_type END AS media_type,
               bytes, CASE WHEN length(sha256) <= 64 THEN sha256 END AS sha256,
               CASE WHEN length(row_json) <= 1048576 THEN row_json END AS row_json
             FROM ${RASTERS_TABLE} ORDER BY id LIMIT 100000`,
          )
          .all({ maxId: maxIdChars }),
      );
      const part = db.prepare<[number, number, number], Record<string, unknown>>(
        `SELECT typeof(data) AS dt, CASE WHEN octet_length(data) <= ? THEN data END AS data
         FROM ${RASTER_PARTS_TABLE} WHERE raster_id = ? AND part = ?`,
      );
      for (const r of list) {
        const id = r.id as number;
        if (typeof r.bytes !== 'number' || !Number.isInteger(r.bytes) || r.bytes < 0)
          throw new PackageError(`the package is damaged: raster ${id} has no size`);
        const file: RasterFile = {
          recordId: text(r.record_id, maxIdChars, `the record of raster ${id}`),
          name: text(r.name, maxIdChars, `the name of raster ${id}`),
          mediaType: text(r.media_type, 256, `the media type of raster ${id}`),
          bytes: r.bytes,
          sha256: text(r.sha256, 64, `the hash of raster ${id}`),
          row: text(r.row_json, 1048576, `the description of raster ${id}`),
        };
        yield {
          file,
          parts: function* () {
            for (let k = 0, seen = 0; seen < file.bytes; k++) {
              const row = damaged(() => part.get(RASTER_PART_MAX, id, k));
              if (!row || row.dt !== 'blob' || !(row.data instanceof Buffer))
                throw new PackageError(
                  `the package is damaged: part ${k} of raster ${id} is missing`,
                );
              seen += row.data.length;
              yield row.data;
            }
          },
        };
      }
    },
    close: () => db.close(),
  };
}

/** Values held at once by a chunk of records or pictures (one value over it is a chunk alone). */
const CHUNK_BYTES = 16 * 1024 * 1024;

/**
 * Rows read one at a time by id order, `map`ped (which checks them) and handed over in chunks
 * of at most the query's row limit and about `CHUNK_BYTES`: memory stays bounded whatever the
 * values' sizes.
 */
function* chunked<T>(
  rows: (after: number) => IterableIterator<Record<string, unknown>>,
  map: (row: Record<string, unknown>) => T,
  size: (t: T) => number,
): Generator<T[]> {
  let after = 0;
  for (;;) {
    const out: T[] = [];
    let bytes = 0;
    damaged(() => {
      for (const row of rows(after)) {
        after = row.id as number;
        const t = map(row);
        out.push(t);
        bytes += size(t);
        if (bytes >= CHUNK_BYTES) break;
      }
    });
    if (out.length === 0) return;
    yield out;
  }
}

/** A stored raster part at most (the writer's are 16 MB). */
const RASTER_PART_MAX = 64 * 1024 * 1024;
