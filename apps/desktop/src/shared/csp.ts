/**
 * The renderer's Content-Security-Policy: Electron (response header + meta tag) and browser
 * mode (response header) use the same one. No remote origin at all: tiles and data come
 * through the contract, never straight from the network.
 */
export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // Leaflet positions map panes with inline style attributes.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
