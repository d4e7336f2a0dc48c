/**
 * The renderer's Content-Security-Policy: Electron (response header + meta tag) and browser
 * mode (response header) use the same one. No remote origin at all: tiles and data come
 * through the contract, never straight from the network.
 */
import { QUICKLOOK_SCHEME } from './quicklook-paths';
import { RASTER_SCHEME } from './raster-paths';

export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // Leaflet positions map panes with inline style attributes.
  "style-src 'self' 'unsafe-inline'",
  // Mirrored quicklooks: Electron's scheme (browser mode serves them from 'self').
  `img-src 'self' data: blob: ${QUICKLOOK_SCHEME}:`,
  "font-src 'self'",
  // Offline rasters' bytes, read by the raster worker by range: Electron's scheme (browser mode
  // serves them from 'self').
  `connect-src 'self' ${RASTER_SCHEME}:`,
  // The raster worker is a file of the app.
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
