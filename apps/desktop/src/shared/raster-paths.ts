/**
 * How the bytes of an offline raster (a site's window, stored by @eo/sync) reach the renderer's
 * raster worker: by HTTP range requests on a URL, the way a COG is read from a server, never
 * through a contract call (the worker fetches the tiles it draws; nothing is base64 or JSON).
 *
 * - Electron: `eo-raster://file/<raster id, URI-encoded>`, a privileged scheme (fetch allowed)
 *   main answers from the backend (src/main/raster-protocol.ts). The id is in the path: the host
 *   of a standard scheme is lower-cased.
 * - Browser mode: `GET /api/rasters/<raster id, URI-encoded>?token=<token>` on the browser-mode
 *   server (a worker's fetch could send the header, but one URL form for both keeps the worker
 *   simple).
 *
 * Both send the `Range` header as they got it; the backend validates the id and the range
 * (backend/raster-bytes.ts). No zod here: main and the browser-mode server split these paths
 * before the contract's schemas are loaded.
 */
export const RASTER_SCHEME = 'eo-raster';
export const RASTER_SCHEME_HOST = 'file';
export const RASTER_HTTP_PREFIX = '/api/rasters/';
/**
 * Browser mode's download of a raster export (`rasters.export`): `GET
 * /api/raster-exports/<export id>?token=<token>`, the whole GeoTIFF as an attachment (a link the
 * page clicks: the browser saves it). Electron has no such route: main saves the file itself.
 */
export const RASTER_EXPORT_HTTP_PREFIX = '/api/raster-exports/';

/** The encoded id: the part both URL forms end with. */
export const rasterPath = (rasterId: string): string => encodeURIComponent(rasterId);

/** The raw raster id of `<encoded id>` (unvalidated: the backend checks it), or null. */
export function splitRasterPath(path: string): string | null {
  if (!/^[^/]+$/.test(path)) return null;
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}
