/**
 * Electron's path for the app's own page and files: the `eo-app:` scheme
 * (`eo-app://app/index.html`), in place of file://. Chromium keeps the V8 code it compiled from
 * a page's scripts only for schemes with a code cache (http, https, and a custom scheme
 * registered with `codeCache`): from file:// the 1.1 MB first screen's script is compiled on
 * every launch, while browser mode's launches reuse it (docs/cold-start.md, 2026-12-01). A
 * module script uses its kept code only with the window's Chromium switches
 * (chromium-switches.ts).
 * Privileges: standard and secure (an origin of its own, `eo-app://app`, parsed like https, so
 * module scripts, the raster worker and 'self' in the CSP work as over http), fetch (the page
 * fetches files of its own), the code cache. Only the built renderer's files
 * (backend/renderer-files.ts, the same resolution as browser mode's); the page with the CSP.
 */
import fs from 'node:fs/promises';
import type { Protocol } from 'electron';
import { CSP } from '../shared/csp';
import { resolveRendererFile } from '../backend/renderer-files';

export const APP_SCHEME = 'eo-app';
const APP_HOST = 'app';
/** The page the window loads. */
export const APP_PAGE_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
} as const;

const text = (status: number, body: string) =>
  new Response(body, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' },
  });

/** The answer to one `eo-app://app/<path>` request: a file of the built renderer, or an error. */
export async function appFileResponse(
  request: { url: string; method?: string },
  rendererDir: string,
): Promise<Response> {
  const method = request.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') return text(405, 'GET only');
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return text(400, 'bad URL');
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST)
    return text(400, `expected ${APP_SCHEME}://${APP_HOST}/<file>`);
  const file = resolveRendererFile(rendererDir, url.pathname);
  if (file === 'bad path') return text(400, 'bad path');
  if (file === null) return text(404, 'not found');
  const headers: Record<string, string> = {
    'Content-Type': file.type,
    'Content-Length': String(file.size),
    'X-Content-Type-Options': 'nosniff',
  };
  if (file.type.startsWith('text/html')) {
    headers['Content-Security-Policy'] = CSP;
    headers['Cache-Control'] = 'no-store';
  }
  // Our own build's files (the largest is the first screen's script, ~1.1 MB): read whole.
  const body = method === 'HEAD' ? null : await fs.readFile(file.path);
  return new Response(body, { status: 200, headers });
}

/** Answers the scheme in a session (after app ready). */
export function serveAppFiles(protocol: Pick<Protocol, 'handle'>, rendererDir: string): void {
  protocol.handle(APP_SCHEME, (request) => appFileResponse(request, rendererDir));
}
