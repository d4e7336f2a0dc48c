/**
 * Browser mode: the backend's contract over HTTP on 127.0.0.1, plus the built renderer.
 *
 * - `POST /api/call/<method>` with a JSON body and `Authorization: Bearer <token>`: the
 *   backend's dispatch (name and argument validated there); the answer is the CallResult envelope, or, for a
 *   successful call whose value is bytes (`catalog.footprints`), those bytes as
 *   `application/octet-stream` (errors stay JSON envelopes).
 * - `GET /api/events?token=<token>`: Server-Sent Events, `event: <name>` + JSON `data:`.
 *   (EventSource cannot set headers, hence the token in the query.)
 * - `GET /api/quicklooks/<variant>/<record id>?token=<token>`: a mirrored quicklook's PNG
 *   (shared/quicklooks.ts; `<img>` cannot set headers either), 404 when the mirror has none.
 * - `GET /api/rasters/<raster id>?token=<token>` with `Range: bytes=a-b`: a byte range of a
 *   stored offline raster, 206 (shared/raster-paths.ts), for the renderer's raster worker.
 * - `GET /api/raster-exports/<export id>?token=<token>`: a raster export (`rasters.export`),
 *   the whole GeoTIFF streamed as an attachment (the page's download link).
 * - Everything else: the renderer's static files, HTML with a strict CSP.
 *
 * Defences: a per-launch random token on every API request (a page on another origin cannot
 * read it: it is only in the URL fragment printed at start); Host must be 127.0.0.1/localhost
 * on our port (DNS rebinding); a cross-origin Origin is refused; JSON content type required.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Backend } from '../backend/backend';
import { MAX_IMPORT_BASE64_CHARS } from '../shared/file-limits';
import { CSP } from '../shared/csp';
import { QUICKLOOK_HTTP_PREFIX } from '../shared/quicklook-paths';
import { RASTER_EXPORT_HTTP_PREFIX, RASTER_HTTP_PREFIX } from '../shared/raster-paths';
import { eventStreams } from './event-stream';
import { readBody, send, sendBytes, statusOf } from './http-answers';
import { sendQuicklook, sendRaster, sendRasterExport } from './mirror-files';
import { staticFiles } from './static-files';

export { CSP };

const MAX_BODY = 1024 * 1024;
/**
 * `files.preview`, `packages.open` and `outbox.receiveHandover` carry a whole file as base64 (its
 * limit checked again by the contract).
 */
const MAX_FILE_BODY = MAX_IMPORT_BASE64_CHARS + 64 * 1024;
/**
 * Methods that carry a file, or the areas read from one (the AOIs of a field file at once), or
 * a pasted area (up to 512 K characters, escaped in JSON).
 */
const LARGE_BODIES = new Set([
  'files.preview',
  'files.typedArea',
  'outbox.enqueueAll',
  'outbox.receiveHandover',
  'packages.open',
]);

export interface BrowserModeServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly token: string;
  /** What to open: the URL with `#token=...`. */
  readonly openUrl: string;
  close(): Promise<void>;
}

export async function startBrowserMode(options: {
  /**
   * The backend, or its start: the page can load while the backend is still starting (cold
   * start); calls and the event stream wait for it.
   */
  readonly backend: Backend | Promise<Backend>;
  /** The built renderer (electron-vite's `out/renderer`). */
  readonly rendererDir: string;
  readonly port?: number;
  /**
   * Without `port`: the port to listen on when it is free (the last launch's), else any.
   */
  readonly preferredPort?: number;
  /** Fixed token (tests); default 32 random bytes. */
  readonly token?: string;
  /** SSE keep-alive comment interval. Default 15 000 ms. */
  readonly heartbeatMs?: number;
  /** Called once when the page's files were served (static-files.ts says when exactly). */
  readonly onPageServed?: () => void;
}): Promise<BrowserModeServer> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const tokenBytes = Buffer.from(token);
  const backend = Promise.resolve(options.backend);
  const streams = eventStreams(backend, options.heartbeatMs ?? 15_000);
  const serveStatic = staticFiles(path.resolve(options.rendererDir), options.onPageServed);
  let port = 0;

  const tokenOk = (given: string | null | undefined): boolean => {
    if (!given) return false;
    const b = Buffer.from(given);
    return b.length === tokenBytes.length && timingSafeEqual(b, tokenBytes);
  };
  const allowedHosts = () => new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const allowedOrigins = () => new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((e: unknown) => {
      console.error('browser mode: request failed:', e instanceof Error ? e.message : e);
      if (!res.headersSent) send(res, 500, { error: 'internal error' });
      else res.destroy();
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    if (!allowedHosts().has(req.headers.host ?? '')) {
      // DNS rebinding: a hostile name resolving to 127.0.0.1 arrives with its own Host.
      return send(res, 421, { error: 'unexpected Host header' });
    }
    const origin = req.headers.origin;
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (!url.pathname.startsWith('/api/')) {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        return send(res, 405, { error: 'GET only' });
      }
      return serveStatic(url.pathname, res, {
        head: req.method === 'HEAD',
        ifNoneMatch: req.headers['if-none-match'],
      });
    }
    if (origin !== undefined && !allowedOrigins().has(origin)) {
      return send(res, 403, { error: 'cross-origin request refused' });
    }
    if (req.method === 'GET') {
      const served = await serveQueryTokenGet(url, req, res);
      if (served) return;
    }
    const m = /^\/api\/call\/([A-Za-z.]+)$/.exec(url.pathname);
    if (!m || req.method !== 'POST') return send(res, 404, { error: 'not found' });
    const auth = req.headers.authorization ?? '';
    if (!tokenOk(auth.startsWith('Bearer ') ? auth.slice(7) : null)) {
      return send(res, 401, { error: 'bad token' });
    }
    return call(m[1]!, req, res);
  }

  /**
   * The GETs a page makes without headers (EventSource, `<img>`, the raster worker, a download
   * link), their token in the query. False when the path is none of them.
   */
  async function serveQueryTokenGet(
    url: URL,
    req: http.IncomingMessage,
    res: http.ServerResponse,
  ): Promise<boolean> {
    const p = url.pathname;
    const rest = (prefix: string) => p.slice(prefix.length);
    const answer: (() => void | Promise<void>) | null =
      p === '/api/events'
        ? () => streams.open(res)
        : p.startsWith(QUICKLOOK_HTTP_PREFIX)
          ? () => sendQuicklook(backend, rest(QUICKLOOK_HTTP_PREFIX), res)
          : p.startsWith(RASTER_HTTP_PREFIX)
            ? () => sendRaster(backend, rest(RASTER_HTTP_PREFIX), req.headers.range ?? null, res)
            : p.startsWith(RASTER_EXPORT_HTTP_PREFIX)
              ? () => sendRasterExport(backend, rest(RASTER_EXPORT_HTTP_PREFIX), res)
              : null;
    if (answer === null) return false;
    if (!tokenOk(url.searchParams.get('token'))) send(res, 401, { error: 'bad token' });
    else await answer();
    return true;
  }

  /** `POST /api/call/<method>`: the backend's dispatch validates the name and the argument. */
  async function call(
    method: string,
    req: http.IncomingMessage,
    res: http.ServerResponse,
  ): Promise<void> {
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
      return send(res, 415, { error: 'send application/json' });
    }
    const body = await readBody(req, LARGE_BODIES.has(method) ? MAX_FILE_BODY : MAX_BODY);
    if (body === null) return send(res, 413, { error: 'body too large' });
    let input: unknown;
    try {
      input = body.length === 0 ? undefined : JSON.parse(body);
    } catch {
      return send(res, 400, {
        ok: false,
        error: { code: 'invalid_argument', message: 'the body is not JSON' },
      });
    }
    const result = await (await backend).dispatch(method, input);
    if (result.ok && result.value instanceof Uint8Array) return sendBytes(res, result.value);
    return send(res, statusOf(result), result);
  }

  const listen = (on: number) =>
    new Promise<void>((resolve, reject) => {
      const failed = (e: Error) => reject(e);
      server.once('error', failed);
      server.listen(on, '127.0.0.1', () => {
        server.off('error', failed);
        resolve();
      });
    });
  if (options.port === undefined && options.preferredPort !== undefined) {
    // Taken (or refused) since the last launch: any free port, as without one.
    await listen(options.preferredPort).catch(() => listen(0));
  } else await listen(options.port ?? 0);
  port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    token,
    openUrl: `${url}/#token=${token}`,
    async close() {
      streams.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
