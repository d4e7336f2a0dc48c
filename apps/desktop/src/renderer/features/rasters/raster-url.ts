/**
 * Where the raster worker reads an offline raster's bytes (shared/raster-paths.ts): Electron's
 * `eo-raster:` scheme, or browser mode's GET route with the page's token in the query (one URL
 * form for every fetch of the worker). Absolute: the worker resolves URLs against its own script.
 */
import {
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

let current: RasterUrl | null = null;

/** Set once at start-up (main.ts) from the chosen bridge, or by a test. */
export function provideRasterUrl(fn: RasterUrl | null): void {
  current = fn;
}

/** The URL of a raster's bytes; null when no source was provided. */
export function rasterUrl(rasterId: string): string | null {
  return current ? current(rasterId) : null;
}
