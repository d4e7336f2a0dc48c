/** Offline rasters as the CLI and the desktop see them (rows of `offline_rasters`, read). */
import type { MultiPolygon, Polygon } from '@eo/domain';
import path from 'node:path';
import { rastersDir } from './raster-files';
import type { OfflineRasterRow, OfflineState, SceneKind } from './store';

export interface OfflineRaster {
  readonly id: string;
  readonly scene: {
    readonly kind: SceneKind;
    /** The id the user gave. */
    readonly ref: string;
    readonly aoiId: string | null;
    /** The catalog record or archive scene the file holds, once known. */
    readonly sceneId: string | null;
  };
  readonly area: { readonly geometry: Polygon | MultiPolygon; readonly label: string };
  /** `native` or `<N>m`, as asked. */
  readonly resolution: string;
  /** 0 full resolution, n the n-th overview; null until the file's header is read. */
  readonly level: number | null;
  readonly state: OfflineState;
  /** `window` (a GeoTIFF of the site) or `whole` (the download's whole file). */
  readonly mode: 'window' | 'whole' | null;
  readonly downloadId: string | null;
  readonly epsg: number | null;
  /** `[minX, minY, maxX, maxY]` in the CRS. */
  readonly bounds: readonly [number, number, number, number] | null;
  readonly width: number | null;
  readonly height: number | null;
  readonly bands: readonly string[];
  readonly nodata: number | null;
  /** The stored file (absolute path), once stored. */
  readonly file: string | null;
  readonly bytes: number | null;
  readonly plannedBytes: number | null;
  readonly fetchedBytes: number;
  /** Why it failed, or what to know about it (a whole-file fallback). */
  readonly message: string | null;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  readonly storedAt: number | null;
}

const parse = <T>(json: string | null, fallback: T): T =>
  json === null ? fallback : (JSON.parse(json) as T);

export function rasterOf(row: OfflineRasterRow, dbFile: string): OfflineRaster {
  return {
    id: row.id,
    scene: {
      kind: row.scene_kind as SceneKind,
      ref: row.scene_ref,
      aoiId: row.aoi_id,
      sceneId: row.scene_id,
    },
    area: { geometry: parse(row.area_json, null)!, label: row.area_label },
    resolution: row.resolution,
    level: row.level,
    state: row.state as OfflineState,
    mode: row.mode as OfflineRaster['mode'],
    downloadId: row.download_id,
    epsg: row.epsg,
    bounds: parse(row.bounds_json, null),
    width: row.width,
    height: row.height,
    bands: parse(row.bands_json, []),
    nodata: row.nodata,
    file: row.file && row.state === 'stored' ? path.join(rastersDir(dbFile), row.file) : null,
    bytes: row.bytes,
    plannedBytes: row.planned_bytes,
    fetchedBytes: row.fetched_bytes,
    message: row.message,
    createdAt: Math.round(row.created_at_us / 1000),
    storedAt: row.stored_at_us === null ? null : Math.round(row.stored_at_us / 1000),
  };
}
