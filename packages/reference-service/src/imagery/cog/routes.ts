/**
 * `GET|HEAD /rasters/{archive|catalog}/{id}/scene.tif?expires=&signature=`: a scene's COG,
 * the data behind a download's `signed_url`. No API key: the signature is the permission.
 * HTTP ranges for COG readers: one range → 206, several → 206 `multipart/byteranges`, none
 * satisfiable → 416; strong ETag, `If-None-Match` → 304, `If-Range`; immutable caching. A COG
 * not on disk (evicted, or its render under way) → 503 with `Retry-After`, its render started.
 */
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { COG_MEDIA_TYPE } from '@eo/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { ApiError } from '../../http/errors';
import { parseRanges } from '../../http/ranges';
import type { SceneCogFile, SceneSource } from './scene-cogs';

export const RASTER_ROUTE = '/rasters/:source/:id/:file';
export const COG_CONTENT_TYPE = COG_MEDIA_TYPE;
const IMMUTABLE = 'public, max-age=31536000, immutable';
const CRLF = '\r\n';

const matchesEtag = (header: string | undefined, etag: string) =>
  header !== undefined &&
  header.split(',').some((t) => {
    const v = t.trim();
    return v === '*' || v === etag || v === `W/${etag}`;
  });

const REFUSALS = {
  missing:
    'Asset URLs need the expires and signature parameters they were issued with (API keys are not accepted here)',
  expired: 'This asset URL has expired: ask for the download again for a fresh one',
  'bad-signature': 'This asset URL is not one the service issued (signature mismatch)',
} as const;

/** The bytes [start, end] of an open file, streamed (the descriptor stays open). */
const slice = (fd: number, start: number, end: number) =>
  fs.createReadStream('', { fd, start, end, autoClose: false });

/** A `multipart/byteranges` body of `parts` of the file, and its length. */
function multipart(
  fd: number,
  file: SceneCogFile,
  parts: readonly { start: number; end: number }[],
) {
  const boundary = `eo-${file.etag.slice(5, 21)}`;
  const heads = parts.map(
    (p, i) =>
      `${i === 0 ? '' : CRLF}--${boundary}${CRLF}Content-Type: ${COG_CONTENT_TYPE}${CRLF}` +
      `Content-Range: bytes ${p.start}-${p.end}/${file.bytes}${CRLF}${CRLF}`,
  );
  const tail = `${CRLF}--${boundary}--${CRLF}`;
  const length =
    heads.reduce((s, h) => s + Buffer.byteLength(h), 0) +
    parts.reduce((s, p) => s + p.end - p.start + 1, 0) +
    Buffer.byteLength(tail);
  async function* body() {
    for (let i = 0; i < parts.length; i++) {
      yield Buffer.from(heads[i]!);
      for await (const chunk of slice(fd, parts[i]!.start, parts[i]!.end)) yield chunk as Buffer;
    }
    yield Buffer.from(tail);
  }
  return { boundary, length, stream: Readable.from(body()) };
}

function send(request: FastifyRequest, reply: FastifyReply, file: SceneCogFile, fd: number) {
  const ifRange = request.headers['if-range'];
  const ranges =
    ifRange === undefined || ifRange === file.etag
      ? parseRanges(request.headers.range, file.bytes)
      : ({ kind: 'whole' } as const);
  if (ranges.kind === 'unsatisfiable') {
    fs.closeSync(fd);
    void reply.header('content-range', `bytes */${file.bytes}`);
    throw new ApiError(416, 'range_not_satisfiable', `The file has ${file.bytes} bytes`);
  }
  reply.raw.on('close', () => fs.close(fd, () => undefined));
  if (ranges.kind === 'whole') {
    void reply.type(COG_CONTENT_TYPE).header('content-length', file.bytes);
    return reply.send(request.method === 'HEAD' ? undefined : slice(fd, 0, file.bytes - 1));
  }
  if (ranges.parts.length === 1) {
    const { start, end } = ranges.parts[0]!;
    void reply
      .code(206)
      .type(COG_CONTENT_TYPE)
      .header('content-range', `bytes ${start}-${end}/${file.bytes}`)
      .header('content-length', end - start + 1);
    return reply.send(request.method === 'HEAD' ? undefined : slice(fd, start, end));
  }
  const body = multipart(fd, file, ranges.parts);
  void reply
    .code(206)
    .type(`multipart/byteranges; boundary=${body.boundary}`)
    .header('content-length', body.length);
  return reply.send(request.method === 'HEAD' ? undefined : body.stream);
}

export function registerRasterRoutes(app: FastifyInstance, ctx: AppContext): void {
  // HEAD by hand: Fastify's own HEAD route would read a streamed body to the end and send no length.
  app.route({
    method: ['GET', 'HEAD'],
    url: RASTER_ROUTE,
    exposeHeadRoute: false,
    logLevel: 'warn',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const params = request.params as { source: string; id: string; file: string };
      const pathname = request.url.split('?')[0]!;
      const verdict = ctx.imagery.signer.verify(pathname, request.query as Record<string, unknown>);
      if (verdict !== 'ok') throw new ApiError(403, 'forbidden', REFUSALS[verdict]);
      if (
        (params.source !== 'archive' && params.source !== 'catalog') ||
        params.file !== 'scene.tif'
      )
        throw ApiError.notFound('Raster', params.file);
      const found = ctx.imagery.cogs.serve(
        { source: params.source as SceneSource, id: params.id },
        '',
      );
      if (!found) throw ApiError.notFound('Scene', params.id);
      if ('state' in found) {
        void reply.header('retry-after', found.state.status === 'failed' ? '60' : '5');
        throw new ApiError(
          503,
          'unavailable',
          found.state.status === 'failed'
            ? found.state.reason
            : 'This scene is being rendered; retry shortly',
        );
      }
      const { file } = found;
      void reply
        .header('etag', file.etag)
        .header('cache-control', IMMUTABLE)
        .header('accept-ranges', 'bytes');
      if (matchesEtag(request.headers['if-none-match'], file.etag)) return reply.code(304).send();
      let fd: number;
      try {
        fd = fs.openSync(file.path, 'r');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
        // Evicted between the lookup and here: as if it were not on disk.
        void reply.header('retry-after', '5');
        throw new ApiError(503, 'unavailable', 'This scene is being rendered; retry shortly');
      }
      return send(request, reply, file, fd);
    },
  });
}
