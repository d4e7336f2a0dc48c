/**
 * `rasters.export`: an offline raster as a GeoTIFF to save. The window is its stored file as
 * it is (a COG in the stored format: UTM CRS, the scene's grid, every band named, nodata 0,
 * reflectance scale; GDAL and QGIS read it as the service serves it). An index is written as a
 * float32 COG on the same grid, one band per component, NaN where it is undefined (nodata, a
 * division by zero) and GDAL_NODATA `nan`, with the same code the map and the pixel inspector
 * use (`shared/raster-index.ts`), so its values are the app's; its overviews are the index of
 * the window's overviews, as the map draws them. It is computed in a worker thread with heap and
 * time limits (raster-index-in-worker.ts): the backend answers the app meanwhile, and a damaged,
 * hostile or too large stored file is refused with its reason (`invalid_argument`).
 *
 * The bytes never cross the bridge: the file stays in a private temporary folder under an
 * export id, which main copies where the user says (Electron) or browser mode's download
 * route sends (`shared/raster-paths.ts`). The last few are kept; the folder goes at close.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  ContractError,
  type ExportedRaster,
  type OfflineRasterView,
  type ParsedInput,
} from '../shared/contract';
import type { OfflineRasters } from './offline-rasters';
import { IndexRefusal } from './raster-index-file';
import {
  INDEX_EXPORT_MAX_PIXELS,
  writeIndexInWorker,
  type IndexWorkerLimits,
} from './raster-index-in-worker';

type Request = ParsedInput<'rasters.export'>;

/** Index files kept for their download or save (older ones are deleted). */
const KEPT_EXPORTS = 4;
const TIFF = 'image/tiff';

/** "Field 7 (north)" -> "field-7-north": a file name part in any file system. */
export function slug(text: string, max = 60): string {
  const s = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/, '');
  return s || 'raster';
}

/** "field-7-2026-05-21[-ndvi].tif": the site, the acquisition date, what it holds. */
export function exportFileName(view: OfflineRasterView, indexName?: string): string {
  const parts = [slug(view.areaLabel), view.raster?.datetime?.slice(0, 10) ?? null];
  if (indexName) parts.push(slug(indexName, 40));
  return `${parts.filter(Boolean).join('-')}.tif`;
}

const bad = (message: string, p: string) =>
  new ContractError('invalid_argument', message, { issues: [{ path: p, message }] });

export interface RasterExports {
  export(req: Request): Promise<ExportedRaster>;
  /** The file of an export, for main's save and browser mode's download; null when unknown. */
  file(exportId: unknown): { file: string; fileName: string; bytes: number } | null;
  close(): void;
}

export interface RasterExportOptions {
  readonly tmpDir?: string;
  /** Pixels an index is exported for, at most (INDEX_EXPORT_MAX_PIXELS). */
  readonly maxIndexPixels?: number;
  readonly worker?: Partial<IndexWorkerLimits>;
}

export function makeRasterExports(
  rasters: Pick<OfflineRasters, 'list' | 'stored'>,
  options: RasterExportOptions = {},
): RasterExports {
  const tmpDir = options.tmpDir ?? os.tmpdir();
  const exports = new Map<
    string,
    { file: string; fileName: string; bytes: number; temp: boolean }
  >();
  let dir: string | null = null;

  function remember(entry: { file: string; fileName: string; bytes: number; temp: boolean }) {
    const exportId = randomUUID();
    exports.set(exportId, entry);
    const temps = [...exports].filter(([, e]) => e.temp);
    for (const [id, e] of temps.slice(0, Math.max(0, temps.length - KEPT_EXPORTS))) {
      exports.delete(id);
      fs.rmSync(e.file, { force: true });
    }
    // Stored files are not ours to delete: only their ids go.
    for (const id of [...exports.keys()].slice(0, Math.max(0, exports.size - 4 * KEPT_EXPORTS)))
      if (!exports.get(id)!.temp) exports.delete(id);
    return exportId;
  }

  return {
    async export(req) {
      const view = (await rasters.list()).rasters.find((r) => r.id === req.id);
      const stored = view?.state === 'stored' ? await rasters.stored(req.id) : null;
      if (!view || !stored) throw bad(`no stored offline raster ${req.id}`, 'id');
      if (req.what === 'window') {
        const fileName = exportFileName(view);
        const exportId = remember({ file: stored.file, fileName, bytes: stored.size, temp: false });
        return { fileName, mediaType: TIFF, bytes: stored.size, exportId };
      }
      dir ??= fs.mkdtempSync(path.join(tmpDir, 'eo-raster-export-'));
      const file = path.join(dir, `${randomUUID()}.tif`);
      let bytes: number;
      try {
        // In a thread of its own: a large window's compute never holds this event loop.
        bytes = await writeIndexInWorker(
          {
            source: stored.file,
            target: file,
            index: req.index,
            maxPixels: options.maxIndexPixels ?? INDEX_EXPORT_MAX_PIXELS,
          },
          options.worker,
        );
      } catch (e) {
        fs.rmSync(file, { force: true });
        throw e instanceof IndexRefusal ? bad(e.message, e.path) : e;
      }
      const fileName = exportFileName(view, req.index.name);
      const exportId = remember({ file, fileName, bytes, temp: true });
      return { fileName, mediaType: TIFF, bytes, exportId };
    },
    file(exportId) {
      if (typeof exportId !== 'string') return null;
      const e = exports.get(exportId);
      return e ? { file: e.file, fileName: e.fileName, bytes: e.bytes } : null;
    },
    close() {
      exports.clear();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
      dir = null;
    },
  };
}
