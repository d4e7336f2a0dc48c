/**
 * Writes a planned field package (plan.ts) into one GeoPackage file: the feature layers
 * (layers.ts), the pictures as a media table related to the footprints, scenes and AOIs, every
 * record as the service sent it (`eo_records`), the rasters asked for, and the manifest. It is
 * built under a temporary name beside `file` and renamed when complete, so `file` is either a
 * whole package or absent; then its size and SHA-256 are read back (the copy checks them).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import {
  FIELD_PACKAGE_FORMAT,
  FIELD_PACKAGE_LAYERS,
  FIELD_PACKAGE_RESOURCES,
  FIELD_PACKAGE_VERSION,
  type FieldPackageManifest,
  type ServiceOrigin,
} from '@eo/domain';
import {
  makeGeoPackageWriter,
  type GeoPackageWriter,
  type WrittenLayer,
} from '@eo/formats/geopackage';
import Database from 'better-sqlite3';
import type { ImageryStore } from '../mirror/imagery';
import { writeLayers } from './layers';
import {
  EXTENSION_DEFINITION,
  FIELD_PACKAGE_EXTENSION,
  MANIFEST_DDL,
  MANIFEST_TABLE,
  PICTURE_COLUMNS,
  PICTURES_TABLE,
  RASTER_PARTS_TABLE,
  RASTERS_DDL,
  RASTERS_TABLE,
  RECORDS_DDL,
  RECORDS_TABLE,
} from './layout';
import { RASTER_PART_BYTES, rastersOf, type PixelSource } from './pixels';
import type { PlannedPackage } from './plan';
import { makeRecordReads } from './records';

export interface WrittenPackage {
  readonly file: string;
  readonly bytes: number;
  readonly sha256: string;
  readonly manifest: FieldPackageManifest;
  readonly layers: readonly WrittenLayer[];
  /** Pictures planned whose stored file failed its check (left out; the next sync fetches them). */
  readonly badPictures: number;
}

export interface WriteDeps {
  readonly sqlite: Database.Database;
  readonly imagery: ImageryStore;
  readonly pixels: PixelSource;
  readonly origin: ServiceOrigin;
  readonly now?: () => Date;
}

/** The SHA-256 of a file, read in 1 MB blocks. */
export function fileSha256(file: string): string {
  const hash = crypto.createHash('sha256');
  const fd = fs.openSync(file, 'r');
  try {
    const block = Buffer.allocUnsafe(1024 * 1024);
    for (;;) {
      const n = fs.readSync(fd, block, 0, block.length, null);
      if (n === 0) break;
      hash.update(block.subarray(0, n));
    }
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

function writePictures(
  gpkg: GeoPackageWriter,
  deps: WriteDeps,
  planned: PlannedPackage,
): { count: number; bytes: number; bad: number } {
  const meta = deps.sqlite.prepare<
    [string, string],
    { sha256: string; aoi_id: string | null; legend_json: string | null }
  >('SELECT sha256, aoi_id, legend_json FROM mirror_imagery WHERE record_id = ? AND variant = ?');
  let bad = 0;
  let bytes = 0;
  const rows = function* () {
    for (const p of planned.pictures) {
      const data = deps.imagery.get(p.recordId, p.variant as never);
      const row = data && meta.get(p.recordId, p.variant);
      if (!data || !row) {
        bad++;
        continue;
      }
      bytes += data.length;
      yield {
        data,
        contentType: 'image/png',
        columns: {
          record_id: p.recordId,
          variant: p.variant,
          bytes: data.length,
          sha256: row.sha256,
          aoi_id: row.aoi_id,
          legend_json: row.legend_json,
        },
      };
    }
  };
  const count = gpkg.mediaTable(
    PICTURES_TABLE,
    PICTURE_COLUMNS,
    rows(),
    'Quicklooks of the catalog records and archive scenes, index maps of the AOIs',
  );
  const relate = (name: string, baseTable: string, baseColumn: string, mediaColumn: string) =>
    gpkg.relateMedia({ name, baseTable, baseColumn, mediaTable: PICTURES_TABLE, mediaColumn });
  relate('Quicklooks', FIELD_PACKAGE_LAYERS.catalog, 'id', 'record_id');
  relate('Quicklooks', FIELD_PACKAGE_LAYERS.archive, 'id', 'record_id');
  relate('Index maps', FIELD_PACKAGE_LAYERS.aois, 'aoi_id', 'aoi_id');
  return { count, bytes, bad };
}

function writeRecords(db: Database.Database, deps: WriteDeps, planned: PlannedPackage): void {
  const reads = makeRecordReads(deps.sqlite);
  db.exec(RECORDS_DDL);
  const insert = db.prepare(
    `INSERT INTO ${RECORDS_TABLE} (resource, record_id, updated_at_us, json) VALUES (?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (const resource of FIELD_PACKAGE_RESOURCES)
      for (const id of planned.selected.ids[resource]) {
        const r = reads.read(resource, id);
        if (r) insert.run(resource, id, r.updatedAtUs, r.json);
      }
  })();
}

function writeRasters(db: Database.Database, deps: WriteDeps, planned: PlannedPackage): void {
  db.exec(RASTERS_DDL);
  if (!planned.plan.pixels.asked) return;
  const file = db.prepare(
    `INSERT INTO ${RASTERS_TABLE} (record_id, name, media_type, bytes, sha256, row_json)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const part = db.prepare(
    `INSERT INTO ${RASTER_PARTS_TABLE} (raster_id, part, data) VALUES (?, ?, ?)`,
  );
  db.transaction(() => {
    for (const r of rastersOf(deps.pixels, planned.selected)) {
      const id = file.run(
        r.recordId,
        r.name,
        r.mediaType,
        r.bytes,
        r.sha256,
        r.row,
      ).lastInsertRowid;
      let k = 0;
      for (const data of deps.pixels.read(r, RASTER_PART_BYTES)) part.run(id, k++, data);
    }
  })();
}

/** Writes the package to `file` (which must not exist yet). */
export function writeFieldPackage(
  deps: WriteDeps,
  planned: PlannedPackage,
  file: string,
): WrittenPackage {
  if (fs.existsSync(file)) throw new Error(`${file} exists already`);
  const temp = `${file}.${process.pid}.building`;
  fs.rmSync(temp, { force: true });
  const db = new Database(temp);
  let manifest: FieldPackageManifest;
  let layers: WrittenLayer[];
  let pictures: { count: number; bytes: number; bad: number };
  try {
    // A crash leaves the temporary file, never a package: no journal needed while building.
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    const gpkg = makeGeoPackageWriter(db);
    layers = writeLayers(gpkg, makeRecordReads(deps.sqlite), planned.selected.ids);
    pictures = writePictures(gpkg, deps, planned);
    writeRecords(db, deps, planned);
    writeRasters(db, deps, planned);
    const { plan } = planned;
    manifest = {
      format: FIELD_PACKAGE_FORMAT,
      version: FIELD_PACKAGE_VERSION,
      id: randomUUID(),
      createdAt: (deps.now?.() ?? new Date()).toISOString(),
      origin: deps.origin,
      label: plan.label,
      selection: plan.selection,
      imagery: plan.imagery,
      pixels: plan.pixels.asked,
      records: plan.records,
      pictures: { count: pictures.count, bytes: pictures.bytes },
      leftOut: plan.leftOut,
    };
    db.exec(MANIFEST_DDL);
    db.prepare(`INSERT INTO ${MANIFEST_TABLE} (key, value) VALUES ('manifest', ?)`).run(
      JSON.stringify(manifest),
    );
    for (const t of [MANIFEST_TABLE, RECORDS_TABLE, RASTERS_TABLE, RASTER_PARTS_TABLE])
      gpkg.registerExtensionTable(t, FIELD_PACKAGE_EXTENSION, EXTENSION_DEFINITION);
    // A plain rollback-journal file: what every GeoPackage reader opens, self-contained.
    db.pragma('journal_mode = DELETE');
    db.close();
    const fd = fs.openSync(temp, 'r+');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch (e) {
    if (db.open) db.close();
    fs.rmSync(temp, { force: true });
    throw e;
  }
  return {
    file,
    bytes: fs.statSync(file).size,
    sha256: fileSha256(file),
    manifest,
    layers,
    badPictures: pictures.bad,
  };
}
