/**
 * Compressed responses (not in the spec; plain HTTP content coding, RFC 9110 §8.4/§12.5.3).
 * Field links are slow and metered: a 1,000-record catalog page is ~2.5 MB of JSON and ~150 KB
 * as brotli. One `onSend` hook, node:zlib only:
 *
 * - the coding is chosen by `Accept-Encoding` with its q-values: `br` (quality 4: ~15× smaller
 *   JSON at gzip's speed; the default quality 11 takes seconds a page) or `gzip`; `identity`
 *   when neither is acceptable (q=0 or not listed) or identity is ranked higher;
 * - only text-like types (JSON, text, JS, SVG, XML), only bodies of at least `MIN_BYTES`
 *   (below that the framing costs more than it saves), never a body that already has a
 *   `Content-Encoding` (and so never twice), never a range (206) or a `no-transform` body; a
 *   strong ETag becomes weak on a compressed body;
 * - streaming: the body is piped through a zlib stream (compressed in libuv's thread pool, sent
 *   as it is produced), and streamed bodies (Swagger UI's files) are piped too;
 * - a body marked `reusable` (a cached page that is sent again as the same Buffer) keeps its
 *   compressed forms beside it, in a WeakMap keyed by that Buffer: compressed at most once per
 *   coding while the cache holds it, and dropped with it;
 * - `Vary: Accept-Encoding` on every response whose body could have been compressed;
 * - HEAD gets the headers GET would (coding, Vary, no length) without compressing anything.
 */
import { Readable, type Stream } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export type Coding = 'br' | 'gzip' | 'identity';

/** Smallest body worth compressing (bytes). */
export const MIN_BYTES = 1024;
/** Brotli quality used on the fly: fast, and within ~10% of gzip's time (0..11). */
export const BROTLI_QUALITY = 4;

const COMPRESSIBLE =
  /^(text\/|application\/(json|javascript|xml|[\w.+-]+\+(json|xml))|image\/svg\+xml)/i;

/** Our preference when the client accepts several codings equally: smallest first. */
const PREFERENCE = ['br', 'gzip'] as const;

/**
 * The coding to answer a request with, from its `Accept-Encoding`: the acceptable coding
 * (q > 0) with the highest q, ties going to `br`; `identity` when none is acceptable, when
 * identity (or `*`, identity unnamed) has a strictly higher q, or when the header is absent.
 */
export function negotiateCoding(acceptEncoding: string | undefined): Coding {
  if (acceptEncoding === undefined || acceptEncoding.trim() === '') return 'identity';
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [rawName, ...params] = part.split(';');
    const name = rawName!.trim().toLowerCase();
    if (name === '') continue;
    let weight = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*(\S*)\s*$/i.exec(p);
      if (m) weight = m[1] === '' ? NaN : Number(m[1]);
    }
    if (!Number.isFinite(weight) || weight < 0 || weight > 1) continue;
    q.set(name === 'x-gzip' ? 'gzip' : name, weight);
  }
  const star = q.get('*');
  const weightOf = (c: string) => q.get(c) ?? star ?? 0;
  let best: Coding = 'identity';
  let bestQ = 0;
  for (const c of PREFERENCE) {
    const w = weightOf(c);
    if (w > bestQ) [best, bestQ] = [c, w];
  }
  // Identity only wins when the client ranks it (or `*`) strictly above every coding; when
  // nothing is acceptable, identity is still sent (a 406 helps nobody).
  const identityQ = q.get('identity') ?? star ?? 0;
  return bestQ > 0 && bestQ >= identityQ ? best : 'identity';
}

function compressor(coding: 'br' | 'gzip', sizeHint: number | undefined): zlib.Gzip {
  if (coding === 'gzip') return zlib.createGzip({ level: 6 });
  return zlib.createBrotliCompress({ params: brotliParams(sizeHint) });
}

function brotliParams(sizeHint: number | undefined): Record<number, number> {
  return {
    [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    ...(sizeHint ? { [zlib.constants.BROTLI_PARAM_SIZE_HINT]: sizeHint } : {}),
  };
}

/** One whole compression in the thread pool (looked up on `zlib` per call: tests count them). */
function compressWhole(body: Buffer, coding: 'br' | 'gzip'): Promise<Buffer> {
  return coding === 'br'
    ? promisify(zlib.brotliCompress)(body, { params: brotliParams(body.length) })
    : promisify(zlib.gzip)(body, { level: 6 });
}

/** Compressed forms of bodies that are sent again as the same Buffer (cached pages). */
const variants = new WeakMap<Buffer, Map<'br' | 'gzip', Promise<Buffer>>>();

/** Marks `body` as sent again unchanged (a cached page): its compressed forms are kept with it. */
export function markReusable(body: Buffer): Buffer {
  if (!variants.has(body)) variants.set(body, new Map());
  return body;
}

function compressedVariant(body: Buffer, coding: 'br' | 'gzip'): Promise<Buffer> | undefined {
  const forms = variants.get(body);
  if (!forms) return undefined;
  let form = forms.get(coding);
  if (!form) {
    form = compressWhole(body, coding);
    // A failure is not remembered: the next request tries again.
    form.catch(() => forms.delete(coding));
    forms.set(coding, form);
  }
  return form;
}

function isStream(payload: unknown): payload is Stream & NodeJS.ReadableStream {
  return typeof (payload as { pipe?: unknown } | null)?.pipe === 'function';
}

function addVary(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  const current = Array.isArray(vary) ? vary.join(', ') : vary === undefined ? '' : String(vary);
  if (/(^|,)\s*(\*|accept-encoding)\s*(,|$)/i.test(current)) return;
  void reply.header('vary', current === '' ? 'Accept-Encoding' : `${current}, Accept-Encoding`);
}

/** The body's size when known up front (buffers, strings, streams with a Content-Length). */
function knownSize(reply: FastifyReply, payload: unknown): number | undefined {
  if (typeof payload === 'string') return Buffer.byteLength(payload);
  if (Buffer.isBuffer(payload)) return payload.length;
  const length = Number(reply.getHeader('content-length'));
  return Number.isFinite(length) && length >= 0 ? length : undefined;
}

async function onSend(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  if (payload === null || payload === undefined) return payload;
  if (reply.statusCode === 204 || reply.statusCode === 304) return payload;
  // A range's offsets count identity bytes: a partial body is never re-encoded.
  if (reply.statusCode === 206 || reply.hasHeader('content-range')) return payload;
  if (reply.hasHeader('content-encoding')) return payload;
  if (/no-transform/i.test(String(reply.getHeader('cache-control') ?? ''))) return payload;
  if (!COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? ''))) return payload;
  const streamed = isStream(payload);
  if (!streamed && typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
  const size = knownSize(reply, payload);
  if (size !== undefined && size < MIN_BYTES) return payload;

  addVary(reply);
  const coding = negotiateCoding(request.headers['accept-encoding']);
  if (coding === 'identity') return payload;
  void reply.header('content-encoding', coding);
  // A strong validator names exact bytes; the compressed bytes differ (RFC 9110 §8.8.1).
  const etag = reply.getHeader('etag');
  if (typeof etag === 'string' && etag.startsWith('"')) void reply.header('etag', `W/${etag}`);

  if (request.method === 'HEAD') {
    // Same headers as GET; the body is dropped anyway, so nothing is compressed.
    if (streamed) (payload as Readable).resume();
    reply.removeHeader('content-length');
    return Readable.from([]);
  }
  const ready = Buffer.isBuffer(payload) ? compressedVariant(payload, coding) : undefined;
  if (ready) return ready; // a Buffer: Fastify sets its Content-Length
  reply.removeHeader('content-length');
  const zip = compressor(coding, size);
  if (streamed) {
    const source = payload as Readable;
    // Either side failing ends both (Fastify reports the error on the response stream).
    source.on('error', (e) => zip.destroy(e));
    return source.pipe(zip);
  }
  zip.end(payload);
  return zip;
}

/** Installs compression on every response of `app` (its routes, 404s and errors). */
export function installCompression(app: FastifyInstance): void {
  app.addHook('onSend', onSend);
}
