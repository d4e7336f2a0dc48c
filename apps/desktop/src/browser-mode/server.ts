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
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Backend } from '../backend/backend';
import type { CallResult } from '../shared/contract';
import { MAX_IMPORT_BASE64_CHARS } from '../shared/file-limits';
import { CSP } from '../shared/csp';
import { QUICKLOOK_HTTP_PREFIX, splitQuicklookPath } from '../shared/quicklook-paths';
import {
  RASTER_EXPORT_HTTP_PREFIX,
  RASTER_HTTP_PREFIX,
  splitRasterPath,
} from '../shared/raster-paths';

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

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

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
  /** Fixed token (tests); default 32 random bytes. */
  readonly token?: string;
  /** SSE keep-alive comment interval. Default 15 000 ms. */
  readonly heartbeatMs?: number;
  /**
   * Called once when the page's files were served: every file its HTML loads before the app
   * starts (entry script, module preloads, stylesheets) went out, a script among them, and no
   * static file is being sent. The launcher starts the backend then, so its start (which holds
   * this event loop for a while) does not delay the page's own files: a browser asks for six
   * at a time, so "nothing being sent" alone came after the first six (cold start, issue 13).
   */
  readonly onPageServed?: () => void;
}): Promise<BrowserModeServer> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const tokenBytes = Buffer.from(token);
  const rendererDir = path.resolve(options.rendererDir);
  const streams = new Set<http.ServerResponse>();
  const backend = Promise.resolve(options.backend);
  /** Static files being sent, whether a script went out, and who waits for the page. */
  let sending = 0;
  let scriptServed = false;
  /** The page's own files not sent yet; null until the page went out. */
  let pageFiles: Set<string> | null = null;
  let pageServed = options.onPageServed;
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
    if (url.pathname.startsWith('/api/')) {
      if (origin !== undefined && !allowedOrigins().has(origin)) {
        return send(res, 403, { error: 'cross-origin request refused' });
      }
      if (url.pathname === '/api/events' && req.method === 'GET') {
        if (!tokenOk(url.searchParams.get('token'))) return send(res, 401, { error: 'bad token' });
        return openStream(res);
      }
      if (url.pathname.startsWith(QUICKLOOK_HTTP_PREFIX) && req.method === 'GET') {
        if (!tokenOk(url.searchParams.get('token'))) return send(res, 401, { error: 'bad token' });
        return sendQuicklook(url.pathname.slice(QUICKLOOK_HTTP_PREFIX.length), res);
      }
      if (url.pathname.startsWith(RASTER_HTTP_PREFIX) && req.method === 'GET') {
        if (!tokenOk(url.searchParams.get('token'))) return send(res, 401, { error: 'bad token' });
        const range = req.headers.range ?? null;
        return sendRaster(url.pathname.slice(RASTER_HTTP_PREFIX.length), range, res);
      }
      if (url.pathname.startsWith(RASTER_EXPORT_HTTP_PREFIX) && req.method === 'GET') {
        if (!tokenOk(url.searchParams.get('token'))) return send(res, 401, { error: 'bad token' });
        return sendRasterExport(url.pathname.slice(RASTER_EXPORT_HTTP_PREFIX.length), res);
      }
      const m = /^\/api\/call\/([A-Za-z.]+)$/.exec(url.pathname);
      if (!m || req.method !== 'POST') return send(res, 404, { error: 'not found' });
      const auth = req.headers.authorization ?? '';
      if (!tokenOk(auth.startsWith('Bearer ') ? auth.slice(7) : null)) {
        return send(res, 401, { error: 'bad token' });
      }
      const method = m[1]!;
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
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, { error: 'GET only' });
    return serveStatic(url.pathname, res, req.method === 'HEAD');
  }

  async function sendQuicklook(rest: string, res: http.ServerResponse): Promise<void> {
    const raw = splitQuicklookPath(rest);
    if (!raw) return send(res, 400, { error: 'expected /api/quicklooks/<variant>/<record id>' });
    const answer = (await backend).quicklook(raw);
    if (answer.status === 400) return send(res, 400, { error: answer.message });
    if (answer.status === 404) return send(res, 404, { error: 'no such picture in the mirror' });
    res.writeHead(200, {
      'Content-Type': 'image/png',
      'Content-Length': answer.bytes.length,
      // Private to this page; a later sync may replace a picture, so not kept for long.
      'Cache-Control': 'private, max-age=300',
    });
    res.end(answer.bytes);
  }

  async function sendRaster(
    rest: string,
    range: string | null,
    res: http.ServerResponse,
  ): Promise<void> {
    const rasterId = splitRasterPath(rest);
    if (rasterId === null) return send(res, 400, { error: 'expected /api/rasters/<raster id>' });
    const answer = await (await backend).rasterBytes({ rasterId, range });
    switch (answer.status) {
      case 400:
      case 413:
        return send(res, answer.status, { error: answer.message });
      case 404:
        return send(res, 404, { error: 'no such offline raster' });
      case 416:
        res.writeHead(416, {
          'Content-Range': `bytes */${answer.size}`,
          'Cache-Control': 'no-store',
        });
        return void res.end();
    }
    res.writeHead(answer.status, {
      'Content-Type': 'image/tiff',
      'Content-Length': answer.bytes.length,
      'Accept-Ranges': 'bytes',
      ...(answer.status === 206
        ? { 'Content-Range': `bytes ${answer.start}-${answer.end}/${answer.size}` }
        : {}),
      // The worker keeps what it decoded; a raster taken again is new bytes under the same id.
      'Cache-Control': 'no-store',
    });
    res.end(answer.bytes);
  }

  async function sendRasterExport(rest: string, res: http.ServerResponse): Promise<void> {
    const exportId = splitRasterPath(rest);
    const found = exportId === null ? null : (await backend).rasterExportFile(exportId);
    if (!found) return send(res, 404, { error: 'no such export: export it again' });
    const stream = fs.createReadStream(found.file);
    stream.once('error', () =>
      res.headersSent ? res.destroy() : send(res, 404, { error: 'gone' }),
    );
    stream.once('open', () => {
      res.writeHead(200, {
        'Content-Type': 'image/tiff',
        'Content-Length': found.bytes,
        // The name is the backend's (letters, digits, dashes, dots): no quoting trouble.
        'Content-Disposition': `attachment; filename="${found.fileName}"`,
        'Cache-Control': 'no-store',
      });
      stream.pipe(res);
    });
  }

  function openStream(res: http.ServerResponse): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
    });
    res.write(': connected\n\n');
    streams.add(res);
    res.on('close', () => streams.delete(res));
  }

  let offEvents = () => {};
  let closed = false;
  void backend.then(
    (b) => {
      if (closed) return;
      offEvents = b.events.onAny((event, payload) => {
        const frame = `event: ${event}\ndata: ${JSON.stringify(payload)}\n\n`;
        for (const s of streams) s.write(frame);
      });
    },
    // The launcher reports a backend that failed to start; calls answer with the error.
    () => undefined,
  );
  const heartbeat = setInterval(() => {
    for (const s of streams) s.write(': keep-alive\n\n');
  }, options.heartbeatMs ?? 15_000);
  heartbeat.unref();

  function serveStatic(pathname: string, res: http.ServerResponse, head: boolean): void {
    let rel: string;
    try {
      rel = decodeURIComponent(pathname);
    } catch {
      return send(res, 400, { error: 'bad path' });
    }
    let file = path.resolve(rendererDir, '.' + path.posix.normalize('/' + rel));
    if (file !== rendererDir && !file.startsWith(rendererDir + path.sep)) {
      return send(res, 404, { error: 'not found' });
    }
    let stat = statOrNull(file);
    if (stat?.isDirectory()) {
      file = path.join(file, 'index.html');
      stat = statOrNull(file);
    }
    if (!stat && path.extname(file) === '') {
      // Client-side routes: the app's page.
      file = path.join(rendererDir, 'index.html');
      stat = statOrNull(file);
    }
    if (!stat || !stat.isFile()) return send(res, 404, { error: 'not found' });
    const type = TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
    const headers: http.OutgoingHttpHeaders = { 'Content-Type': type, 'Content-Length': stat.size };
    if (type.startsWith('text/html')) {
      headers['Content-Security-Policy'] = CSP;
      headers['Cache-Control'] = 'no-store';
      headers['X-Frame-Options'] = 'DENY';
    } else {
      headers['Cache-Control'] = 'no-cache';
    }
    res.writeHead(200, headers);
    if (head) return void res.end();
    if (pageFiles === null && type.startsWith('text/html'))
      pageFiles = filesOfPage(file, rendererDir);
    sending++;
    res.once('close', () => {
      sending--;
      pageFiles?.delete(file);
      if (file.endsWith('.js')) scriptServed = true;
      if (scriptServed && sending === 0 && pageFiles?.size === 0 && pageServed) {
        const call = pageServed;
        pageServed = undefined;
        call();
      }
    });
    fs.createReadStream(file).pipe(res);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    token,
    openUrl: `${url}/#token=${token}`,
    async close() {
      closed = true;
      clearInterval(heartbeat);
      offEvents();
      for (const s of streams) s.end();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/**
 * The files a page loads before its app starts: what its `<script src>` and `<link href>` tags
 * name (the build's entry, module preloads, stylesheets), those that exist beside it.
 */
function filesOfPage(htmlFile: string, root: string): Set<string> {
  const html = fs.readFileSync(htmlFile, 'utf8');
  const dir = path.dirname(htmlFile);
  const files = new Set<string>();
  for (const m of html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"#?]+)[^"]*"/g)) {
    const ref = m[1]!;
    if (/^[a-z]+:/i.test(ref) || ref.startsWith('//')) continue;
    const file = ref.startsWith('/') ? path.join(root, ref) : path.resolve(dir, ref);
    if (file.startsWith(root + path.sep) && statOrNull(file)?.isFile()) files.add(file);
  }
  return files;
}

function statOrNull(file: string): fs.Stats | null {
  try {
    return fs.statSync(file);
  } catch {
    return null;
  }
}

function statusOf(r: CallResult<unknown>): number {
  if (r.ok) return 200;
  switch (r.error.code) {
    case 'invalid_argument':
      return 400;
    case 'unknown_method':
      return 404;
    case 'internal':
      return 500;
    default:
      // busy, not_configured, offline, unauthorized (of the service): the app's state, not HTTP's.
      return 409;
  }
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(json),
  });
  res.end(json);
}

/** A binary answer: the value itself, not an envelope (JSON would spell out every byte). */
function sendBytes(res: http.ServerResponse, bytes: Uint8Array): void {
  res.writeHead(200, {
    'Content-Type': 'application/octet-stream',
    'Cache-Control': 'no-store',
    'Content-Length': bytes.byteLength,
  });
  res.end(bytes);
}

function readBody(req: http.IncomingMessage, max: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooBig = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) tooBig = true;
      else chunks.push(c);
    });
    req.on('end', () => resolve(tooBig ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
