/**
 * Where the raster worker reads an offline raster's bytes (shared/raster-paths.ts): Electron's
 * `eo-raster:` scheme, or browser mode's GET route with the page's token in the query (one URL
 * form for every fetch of the worker). Absolute: the worker resolves URLs against its own script.
 * Browser mode also downloads raster exports from a URL (Electron's main saves them itself).
 */
import {
  RASTER_EXPORT_HTTP_PREFIX,
  RASTER_HTTP_PREFIX,
  RASTER_SCHEME,
  RASTER_SCHEME_HOST,
  rasterPath,
} from '../../../shared/raster-paths';

export type RasterUrl = (rasterId: string) => string;

export function electronRasterUrl(rasterId: string): string {
  return `${RASTER_SCHEME}://${RASTER_SCHEME_HOST}/${rasterPath(rasterId)}`;
}

export function browserRasterUrl(token: string, origin: string): RasterUrl {
  return (rasterId) =>
    `${origin}${RASTER_HTTP_PREFIX}${rasterPath(rasterId)}?token=${encodeURIComponent(token)}`;
}

/** Browser mode's download of a raster export (`rasters.export`'s export id). */
export function browserRasterExportUrl(token: string, origin: string): RasterUrl {
  return (exportId) =>
    `${origin}${RASTER_EXPORT_HTTP_PREFIX}${rasterPath(exportId)}?token=${encodeURIComponent(token)}`;
}

let current: RasterUrl | null = null;
let exportUrl: RasterUrl | null = null;

/** Set once at start-up (main.ts) from the chosen bridge, or by a test. */
export function provideRasterUrl(fn: RasterUrl | null): void {
  current = fn;
}

/** The URL of a raster's bytes; null when no source was provided. */
export function rasterUrl(rasterId: string): string | null {
  return current ? current(rasterId) : null;
}

/** Set once at start-up (main.ts): browser mode's export downloads; null in Electron. */
export function provideRasterExportUrl(fn: RasterUrl | null): void {
  exportUrl = fn;
}

/** Where browser mode downloads a raster export; null in Electron (main saved it). */
export function rasterExportUrl(exportId: string): string | null {
  return exportUrl ? exportUrl(exportId) : null;
}
