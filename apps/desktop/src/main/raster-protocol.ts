/**
 * Electron's path for the bytes of offline rasters: the `eo-raster:` scheme
 * (shared/raster-paths.ts), answered by main from the backend process, by HTTP byte range, for
 * the renderer's raster worker (a `fetch` with a `Range` header). Main only splits the URL and
 * passes the header; the backend validates both. Privileges: standard and secure like the
 * quicklooks' scheme, plus `supportFetchAPI` (the worker fetches) and `corsEnabled`: the page's
 * origin (`file://`, i.e. `null`, or the dev server's) differs from the scheme's, so the answer
 * allows any origin, which in this session is only ever the app's page (navigation elsewhere is
 * refused: window.ts). The CSP allows the scheme in `connect-src` only.
 */
import type { Protocol } from 'electron';
import { RASTER_SCHEME, RASTER_SCHEME_HOST, splitRasterPath } from '../shared/raster-paths';
import type { BackendHost } from './backend-host';

export const RASTER_SCHEME_PRIVILEGES = {
  scheme: RASTER_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true },
} as const;

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Headers': 'Range',
  'Access-Control-Expose-Headers': 'Content-Range, Content-Length, Accept-Ranges',
};

const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, {
    status,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', ...CORS, ...headers },
  });

/** The answer to one `eo-raster://file/<raster id>` request. */
export async function rasterResponse(
  request: Pick<Request, 'url' | 'method' | 'headers'>,
  host: Pick<BackendHost, 'rasterBytes'>,
): Promise<Response> {
  if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: CORS });
  if (request.method !== 'GET') return text(405, 'GET only');
  let parsed: URL;
  try {
    parsed = new URL(request.url);
  } catch {
    return text(400, 'bad URL');
  }
  const rasterId =
    parsed.protocol === `${RASTER_SCHEME}:` &&
    parsed.host === RASTER_SCHEME_HOST &&
    parsed.search === ''
      ? splitRasterPath(parsed.pathname.slice(1))
      : null;
  if (rasterId === null)
    return text(400, `expected ${RASTER_SCHEME}://${RASTER_SCHEME_HOST}/<raster id>`);
  const answer = await host.rasterBytes({ rasterId, range: request.headers.get('range') });
  switch (answer.status) {
    case 400:
    case 413:
      return text(answer.status, answer.message);
    case 404:
      return text(404, 'no such offline raster');
    case 416:
      return text(416, 'range not satisfiable', { 'Content-Range': `bytes */${answer.size}` });
  }
  return new Response(Buffer.from(answer.bytes), {
    status: answer.status,
    headers: {
      'Content-Type': 'image/tiff',
      'Accept-Ranges': 'bytes',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      ...(answer.status === 206
        ? { 'Content-Range': `bytes ${answer.start}-${answer.end}/${answer.size}` }
        : {}),
      ...CORS,
    },
  });
}

/** Answers the scheme in a session (after app ready). */
export function serveRasters(
  protocol: Pick<Protocol, 'handle'>,
  host: Pick<BackendHost, 'rasterBytes'>,
): void {
  protocol.handle(RASTER_SCHEME, (request) => rasterResponse(request, host));
}
