/**
 * The offline rasters as a field package carries them (`field-package/pixels.ts`): the stored
 * rasters of some scenes, each with its row (what the mirror knows of it: area, resolution, CRS,
 * bands, its download) and its file read in parts; and, taking one in, the file written beside
 * the others under a temporary name, kept only once its parts came through whole (size and
 * SHA-256 checked by the caller's generator: `checkedParts`), then its row, `stored`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { PRIVATE_FILE_MODE } from '../db/private-files';
import type { PixelSink, PixelSource, RasterFile } from '../field-package/pixels';
import { ensureRastersDir, promote, rastersDir, storedFileName } from './raster-files';
import type { OfflineRasterRow } from './store';

const MEDIA_TYPES: Record<string, string> = {
  '.tif': 'image/tiff',
  '.zip': 'application/zip',
  '.json': 'application/json',
  '.geojson': 'application/geo+json',
};

/** A row as a package carries it: the columns a stored raster has (checked when taken in). */
const CarriedRow = z.object({
  id: z.string().regex(/^off_[A-Za-z0-9-]{1,64}$/),
  scene_kind: z.enum(['catalog', 'order_item', 'aoi_asset']),
  scene_ref: z.string().max(512),
  aoi_id: z.string().max(512).nullable(),
  scene_id: z.string().max(512).nullable(),
  area_json: z.string().max(4 * 1024 * 1024),
  area_label: z.string().max(1024),
  resolution: z.string().max(32),
  level: z.number().int().nullable(),
  idempotency_key: z.string().max(256),
  download_id: z.string().max(512).nullable(),
  mode: z.enum(['window', 'whole']).nullable(),
  epsg: z.number().int().nullable(),
  bounds_json: z.string().max(4096).nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  bands_json: z.string().max(65536).nullable(),
  nodata: z.number().nullable(),
  file: z.string().max(256).nullable(),
  message: z.string().max(4096).nullable(),
  created_at_us: z.number().int(),
  stored_at_us: z.number().int().nullable(),
});

/** Why a carried raster's row cannot be kept (said as part of a refusal), or null. */
export function carriedRasterProblem(file: RasterFile): string | null {
  let json: unknown;
  try {
    json = JSON.parse(file.row);
  } catch {
    return 'its description is not JSON';
  }
  const row = CarriedRow.safeParse(json);
  if (!row.success)
    return `${row.error.issues[0]?.path.join('.')}: ${row.error.issues[0]?.message}`;
  return row.data.id === file.name
    ? null
    : `it is filed as ${file.name} but describes ${row.data.id}`;
}

export function makePackageRasters(
  sqlite: Database.Database,
  dbFile: string,
): PixelSource & PixelSink {
  const stored = sqlite.prepare<[string], OfflineRasterRow>(
    `SELECT * FROM offline_rasters WHERE scene_id = ? AND state = 'stored' ORDER BY created_at_us, id`,
  );
  const exists = sqlite
    .prepare<[string], number>('SELECT 1 FROM offline_rasters WHERE id = ?')
    .pluck();
  const insert = sqlite.prepare(
    `INSERT INTO offline_rasters (id, scene_kind, scene_ref, aoi_id, scene_id, area_json, area_label,
       resolution, level, idempotency_key, download_id, state, mode, epsg, bounds_json, width, height,
       bands_json, nodata, file, bytes, sha256, message, created_at_us, updated_at_us, stored_at_us)
     VALUES (@id, @scene_kind, @scene_ref, @aoi_id, @scene_id, @area_json, @area_label,
       @resolution, @level, @idempotency_key, @download_id, 'stored', @mode, @epsg, @bounds_json,
       @width, @height, @bands_json, @nodata, @file, @bytes, @sha256, @message, @created_at_us,
       @updated_at_us, @stored_at_us)`,
  );
  return {
    available: true,
    list(recordIds) {
      return recordIds.flatMap((id) =>
        stored.all(id).flatMap((row): RasterFile[] =>
          row.file === null || row.bytes === null || row.sha256 === null
            ? []
            : [
                {
                  recordId: id,
                  name: row.id,
                  mediaType:
                    MEDIA_TYPES[path.extname(row.file).toLowerCase()] ?? 'application/octet-stream',
                  bytes: row.bytes,
                  sha256: row.sha256,
                  row: JSON.stringify(row),
                },
              ],
        ),
      );
    },
    *read(file, partBytes) {
      const row = JSON.parse(file.row) as OfflineRasterRow;
      const fd = fs.openSync(path.join(rastersDir(dbFile), row.file!), 'r');
      try {
        const buf = Buffer.alloc(partBytes);
        for (;;) {
          const n = fs.readSync(fd, buf, 0, partBytes, null);
          if (n === 0) return;
          yield Buffer.from(buf.subarray(0, n));
        }
      } finally {
        fs.closeSync(fd);
      }
    },
    has: (file) => exists.get(file.name) === 1,
    put(file, parts) {
      const row = CarriedRow.parse(JSON.parse(file.row));
      const dir = ensureRastersDir(dbFile);
      const name = storedFileName(row.id, row.file ? path.extname(row.file) : '.bin');
      const temp = path.join(dir, `${row.id}.package.part`);
      const fd = fs.openSync(temp, 'w', PRIVATE_FILE_MODE);
      try {
        for (const part of parts) fs.writeSync(fd, part);
        fs.fsyncSync(fd);
      } catch (e) {
        fs.closeSync(fd);
        fs.rmSync(temp, { force: true });
        throw e;
      }
      fs.closeSync(fd);
      promote(temp, path.join(dir, name));
      const now = Date.now() * 1000;
      insert.run({
        ...row,
        scene_id: row.scene_id ?? file.recordId,
        file: name,
        bytes: file.bytes,
        sha256: file.sha256,
        updated_at_us: now,
        stored_at_us: row.stored_at_us ?? now,
      });
    },
  };
}
