/**
 * Offline rasters as the app shows them: @eo/sync's stored sites (`mirror.offline`: list, file,
 * remove) with what their file's header says (CRS, grid, levels, bands, the scene's items),
 * read once per file with @eo/geotiff (one 16 KiB read), so the renderer can list and place
 * them before its worker reads a byte. The bytes themselves are served by range
 * (`raster-bytes.ts`).
 *
 * `OfflineRasterSource` is the part of @eo/sync's `OfflineRasters` the app uses: the seam to
 * sync stays this thin.
 */
import {
  mapToLonLat,
  openGeoTiff,
  pixelToMap,
  readSceneBands,
  readSceneItems,
  type GeoTiff,
} from '@eo/geotiff';
import { fileSource, nodeCompression } from '@eo/geotiff/node';
import fs from 'node:fs/promises';
import type { OfflineRasterList, OfflineRasterView, StoredRasterInfo } from '../shared/contract';

/** One offline raster as @eo/sync lists it (the fields the app reads). */
export interface SourceRaster {
  readonly id: string;
  readonly scene: {
    readonly kind: string;
    readonly ref: string;
    readonly sceneId: string | null;
  };
  readonly area: { readonly label: string };
  readonly resolution: string;
  readonly state: string;
  readonly bytes: number | null;
  readonly plannedBytes: number | null;
  readonly fetchedBytes: number;
  readonly message: string | null;
  readonly createdAt: number;
  readonly storedAt: number | null;
}

/** What the app needs of @eo/sync's offline rasters (`Mirror['offline']`). */
export interface OfflineRasterSource {
  list(): readonly SourceRaster[];
  get(id: string): SourceRaster | null;
  /** The stored file's path, checked; null when not stored (or bad). */
  file(id: string): string | null;
  remove(id: string): void;
}

/** The raster's box in lon/lat: corners and the middle of each edge (UTM bends lines a little). */
function lonLatBounds(tiff: GeoTiff): [number, number, number, number] {
  const gt = tiff.geoTransform!;
  const epsg = tiff.epsg!;
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const fc of [0, 0.5, 1])
    for (const fr of [0, 0.5, 1]) {
      const [x, y] = pixelToMap(gt, fc * tiff.width, fr * tiff.height);
      const [lon, lat] = mapToLonLat(epsg, x, y);
      [w, s, e, n] = [Math.min(w, lon), Math.min(s, lat), Math.max(e, lon), Math.max(n, lat)];
    }
  return [w, s, e, n];
}

/** The header of a stored file, or why it cannot be shown. */
export async function readRasterInfo(
  file: string,
): Promise<{ info: StoredRasterInfo } | { problem: string }> {
  let handle: fs.FileHandle | null = null;
  try {
    handle = await fs.open(file, 'r');
    const tiff = await openGeoTiff(await fileSource(handle), { compression: nodeCompression });
    if (!tiff.geoTransform || tiff.epsg === null)
      return { problem: 'the file has no georeferencing the app can place' };
    const items = readSceneItems(tiff.metadata);
    const bands = readSceneBands(tiff.metadata);
    return {
      info: {
        epsg: tiff.epsg,
        width: tiff.width,
        height: tiff.height,
        geoTransform: [...tiff.geoTransform],
        bounds: lonLatBounds(tiff),
        levels: tiff.levels.map((l) => ({ width: l.width, height: l.height })),
        bands: Array.from({ length: tiff.bandCount }, (_, i) => ({
          name: bands[i]?.name ?? `band ${i + 1}`,
          commonName: bands[i]?.commonName ?? null,
          wavelengthNm: bands[i]?.wavelengthNm ?? null,
        })),
        nodata: tiff.nodata,
        sceneId: items.sceneId ?? null,
        datetime: items.datetime ?? null,
        satellite: items.satellite ?? null,
        collection: items.collection ?? null,
        cloudCover: items.cloudCover ?? null,
        resolutionM: items.resolutionM ?? Math.abs(tiff.geoTransform[1]),
      },
    };
  } catch (e) {
    return { problem: `the stored file cannot be read: ${e instanceof Error ? e.message : e}` };
  } finally {
    await handle?.close();
  }
}

export interface OfflineRasters {
  list(): Promise<OfflineRasterList>;
  remove(id: string): boolean;
  /** A stored raster's file and size (checked once, then remembered), or null. */
  stored(id: string): Promise<{ file: string; size: number } | null>;
}

/** The imagery budget now: its limit and what quicklooks take of it. */
export type BudgetNow = () => { limitBytes: number; quicklookBytes: number };

export function makeOfflineRasters(
  source: OfflineRasterSource,
  budget?: BudgetNow,
): OfflineRasters {
  /** Headers read, by id and the file's size and time (a raster taken again is read again). */
  const headers = new Map<string, { key: string; read: ReturnType<typeof readRasterInfo> }>();
  /** Files checked by @eo/sync (it hashes them): once per id while the row is unchanged. */
  const files = new Map<string, { key: string; file: string; size: number } | null>();
  const keyOf = (r: SourceRaster) => `${r.bytes}/${r.storedAt}`;

  async function storedFile(r: SourceRaster) {
    const key = keyOf(r);
    const known = files.get(r.id);
    if (known && known.key === key) return known;
    const file = r.state === 'stored' ? source.file(r.id) : null;
    if (!file) return null;
    const size = (await fs.stat(file)).size;
    const entry = { key, file, size };
    files.set(r.id, entry);
    return entry;
  }

  async function view(r: SourceRaster): Promise<OfflineRasterView> {
    let raster: StoredRasterInfo | null = null;
    let problem: string | null = null;
    if (r.state === 'stored') {
      const stored = await storedFile(r);
      if (!stored) problem = 'the stored file is missing or damaged; take the site offline again';
      else {
        const key = keyOf(r);
        let h = headers.get(r.id);
        if (!h || h.key !== key) {
          h = { key, read: readRasterInfo(stored.file) };
          headers.set(r.id, h);
        }
        const read = await h.read;
        if ('info' in read) raster = read.info;
        else problem = read.problem;
      }
    }
    return {
      id: r.id,
      state: r.state,
      scene: { kind: r.scene.kind, ref: r.scene.ref, sceneId: r.scene.sceneId },
      areaLabel: r.area.label,
      resolution: r.resolution,
      bytes: r.bytes,
      plannedBytes: r.plannedBytes,
      fetchedBytes: r.fetchedBytes,
      message: r.message,
      createdAt: r.createdAt,
      storedAt: r.storedAt,
      raster,
      problem,
    };
  }

  return {
    async list() {
      const rows = source.list();
      const rasters = await Promise.all(rows.map(view));
      const bytes = rows.reduce((sum, r) => sum + (r.state === 'stored' ? (r.bytes ?? 0) : 0), 0);
      if (!budget) return { rasters, bytes };
      const { limitBytes, quicklookBytes } = budget();
      return {
        rasters,
        bytes,
        budget: { limitBytes, quicklookBytes, usedBytes: quicklookBytes + bytes },
      };
    },
    remove(id) {
      const known = source.get(id) !== null;
      source.remove(id);
      headers.delete(id);
      files.delete(id);
      return known;
    },
    async stored(id) {
      const r = source.get(id);
      if (!r) return null;
      const s = await storedFile(r);
      return s && { file: s.file, size: s.size };
    },
  };
}
