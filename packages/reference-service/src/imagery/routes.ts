/**
 * `GET /quicklooks/{archive|catalog}/{id}/{thumbnail|overview}.png?expires=&signature=`: the
 * pictures behind asset hrefs. No API key: the signature is the permission (403 in our error
 * shape when it is missing, wrong or expired; an Authorization header changes nothing).
 * Strong ETag, `If-None-Match` → 304, one-range `Range` → 206 / 416, immutable caching. A
 * first request renders on the render pool: 503 with `Retry-After` when its share is full.
 */
import { QUICKLOOK_VARIANTS, type QuicklookVariant } from '@eo/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { ApiError } from '../http/errors';
import { sendRanged } from '../http/send-ranged';
import { quicklookSourceOf, QUICKLOOK_ROUTE, type QuicklookSource } from './hrefs';

const IMMUTABLE = 'public, max-age=31536000, immutable';

const matchesEtag = (header: string | undefined, etag: string) =>
  header !== undefined &&
  header.split(',').some((t) => {
    const v = t.trim();
    return v === '*' || v === etag || v === `W/${etag}`;
  });

export function registerQuicklookRoutes(app: FastifyInstance, ctx: AppContext): void {
  const source = quicklookSourceOf(ctx);
  app.get(
    QUICKLOOK_ROUTE,
    { logLevel: 'warn' },
    async (request: FastifyRequest, reply: FastifyReply) => {
      const params = request.params as { source: string; id: string; file: string };
      const pathname = request.url.split('?')[0]!;
      const verdict = ctx.imagery.signer.verify(pathname, request.query as Record<string, unknown>);
      if (verdict !== 'ok') {
        const why = {
          missing:
            'Asset URLs need the expires and signature parameters they were issued with (API keys are not accepted here)',
          expired: 'This asset URL has expired: read the record again for a fresh one',
          'bad-signature': 'This asset URL is not one the service issued (signature mismatch)',
        }[verdict];
        throw new ApiError(403, 'forbidden', why);
      }
      const variant = /^(\w+)\.png$/.exec(params.file)?.[1] as QuicklookVariant | undefined;
      if (!variant || !QUICKLOOK_VARIANTS.includes(variant))
        throw ApiError.notFound('Picture', params.file);
      const scene = source(params.source as QuicklookSource, params.id);
      if (!scene) throw ApiError.notFound('Scene', params.id);
      const etag = ctx.imagery.store.etagOf(scene, variant);
      void reply
        .header('etag', etag)
        .header('cache-control', IMMUTABLE)
        .header('accept-ranges', 'bytes');
      if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
      // Rendered on first use on the pool, in the share of the organisation the URL was issued to.
      const owner = ctx.imagery.signer.ownerOf(request.query as Record<string, unknown>);
      const { bytes } = await ctx.imagery.store.get(scene, variant, owner);
      void reply.type('image/png');
      return sendRanged(request, reply, bytes, etag);
    },
  );
}
