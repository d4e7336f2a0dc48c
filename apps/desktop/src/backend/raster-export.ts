/**
 * `rasters.export`: an offline raster as a GeoTIFF to save. The window is its stored file as
 * it is (a COG in the stored format: UTM CRS, the scene's grid, every band named, nodata 0,
 * reflectance scale; GDAL and QGIS read it as the service serves it). An index is written as a
 * float32 COG on the same grid, one band per component, NaN where it is undefined (nodata, a
 * division by zero) and GDAL_NODATA `nan`, with the same code the map and the pixel inspector
 * use (`shared/raster-index.ts`), so its values are the app's; its overviews are the index of
 * the window's overviews, as the map draws them.
 *
 * The bytes never cross the bridge: the file stays in a private temporary folder under an
 * export id, which main copies where the user says (Electron) or browser mode's download
 * route sends (`shared/raster-paths.ts`). The last few are kept; the folder goes at close.
 */
import {
  openGeoTiff,
  planCog,
  REFLECTANCE,
  writeCog,
  type CogSpec,
  type GeoTiff,
  type TileRequest,
} from '@eo/geotiff';
import { fileSink, fileSource, nodeCompression } from '@eo/geotiff/node';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import {
  ContractError,
  type ExportedRaster,
  type OfflineRasterView,
  type ParsedInput,
} from '../shared/contract';
import { indexOfTile, kernelOf, type Plane } from '../shared/raster-index';
import type { OfflineRasters } from './offline-rasters';

type Request = ParsedInput<'rasters.export'>;
type IndexRequest = Extract<Request, { what: 'index' }>['index'];

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

/** The index's spec: the window's grid, float32, NaN nodata, its overviews where it can. */
function indexSpec(tiff: GeoTiff, index: IndexRequest, components: number): CogSpec {
  const names = kernelOf(index.expression).bands;
  const rgb = ['red', 'green', 'blue'];
  const base: CogSpec = {
    width: tiff.width,
    height: tiff.height,
    bands: components,
    sampleType: 'float32',
    tileSize: 512,
    geoTransform: tiff.geoTransform!,
    epsg: tiff.epsg!,
    nodata: NaN,
    metadata: {
      ...tiff.metadata.dataset,
      INDEX_NAME: index.name,
      INDEX_EXPRESSION: index.expression,
      INDEX_BANDS: names.map((n, k) => `${n}=${tiff.bandNames[index.bandMap[k]!]}`).join(','),
    },
    bandMetadata: Array.from({ length: components }, (_, c) => ({
      description: components === 1 ? index.name : `${index.name} ${rgb[c]}`,
    })),
    overviews: tiff.levels.length - 1,
  };
  // Its overviews are the window's (the same sizes), else it has none.
  const same = planCog(base).levels.every(
    (l, i) => l.width === tiff.levels[i]?.width && l.height === tiff.levels[i]?.height,
  );
  return same ? base : { ...base, overviews: 0 };
}

/** Writes the index of `tiff` (open on the stored file) to `handle`; its size in bytes. */
async function writeIndex(
  tiff: GeoTiff,
  index: IndexRequest,
  handle: fsp.FileHandle,
): Promise<number> {
  let kernel;
  try {
    kernel = kernelOf(index.expression);
  } catch (e) {
    throw bad(
      `the index does not parse: ${e instanceof Error ? e.message : e}`,
      'index.expression',
    );
  }
  if (kernel.bands.length !== index.bandMap.length)
    throw bad(
      `the expression reads ${kernel.bands.length} bands; bandMap names ${index.bandMap.length}`,
      'index.bandMap',
    );
  const bandCount = tiff.bandCount;
  if (index.bandMap.some((b) => b >= bandCount))
    throw bad(`the raster has ${bandCount} bands`, 'index.bandMap');
  const scales = Array.from({ length: bandCount }, (_, b) => ({
    scale: tiff.metadata.bands[b]?.scale ?? REFLECTANCE.scale,
    offset: tiff.metadata.bands[b]?.offset ?? 0,
  }));
  const read = [...new Set(index.bandMap)];
  const components = kernel.components;
  const spec = indexSpec(tiff, index, components);

  const tile = async (t: TileRequest) => {
    // Other requests (the map's tiles) go between two tiles of a large export.
    await yieldToEvents();
    const x = t.x * t.tileSize;
    const y = t.y * t.tileSize;
    const width = Math.min(t.tileSize, t.levelWidth - x);
    const height = Math.min(t.tileSize, t.levelHeight - y);
    const got = await tiff.readWindow(t.level, { x, y, width, height }, read);
    const planes: Plane[] = [];
    read.forEach((b, j) => (planes[b] = got.bands[j]!));
    const values = indexOfTile(
      kernel,
      planes,
      width * height,
      index.bandMap,
      scales,
      tiff.nodata,
    ).components;
    const out = new Float32Array(t.tileSize * t.tileSize * components).fill(NaN);
    let any = false;
    for (let row = 0; row < height; row++)
      for (let col = 0; col < width; col++) {
        const o = (row * t.tileSize + col) * components;
        for (let c = 0; c < components; c++) {
          const v = values[c]![row * width + col]!;
          out[o + c] = v;
          if (v === v) any = true;
        }
      }
    // Nothing defined: a sparse tile (readers see the nodata, NaN).
    return any ? out : null;
  };
  return (await writeCog(spec, tile, fileSink(handle), nodeCompression)).size;
}

export interface RasterExports {
  export(req: Request): Promise<ExportedRaster>;
  /** The file of an export, for main's save and browser mode's download; null when unknown. */
  file(exportId: unknown): { file: string; fileName: string; bytes: number } | null;
  close(): void;
}

export function makeRasterExports(
  rasters: Pick<OfflineRasters, 'list' | 'stored'>,
  tmpDir: string = os.tmpdir(),
): RasterExports {
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
      const source = await fsp.open(stored.file, 'r');
      const target = await fsp.open(file, 'wx', 0o600);
      let bytes: number;
      try {
        const tiff = await openGeoTiff(await fileSource(source), { compression: nodeCompression });
        if (!tiff.geoTransform || tiff.epsg === null)
          throw bad('the raster has no georeferencing', 'id');
        bytes = await writeIndex(tiff, req.index, target);
      } catch (e) {
        await target.close();
        fs.rmSync(file, { force: true });
        throw e;
      } finally {
        await source.close();
      }
      await target.close();
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
