/**
 * What a finished download's `signed_url` points at. Every scene of a download has one file, a
 * Cloud-Optimized GeoTIFF of the whole scene (the imagery folder renders and serves it), listed
 * in the download's `files`; `signed_url` (one per download in the provider's shape) is that
 * file when the download holds one scene, and the download's manifest when it holds several:
 * `GET /downloads/{download_id}/manifest.json?expires=&signature=`, a JSON list of the same
 * files. URLs are signed at response time like the quicklooks' (no API key; the signature is
 * the permission), so nothing stored ever holds an expiring URL.
 */
import { createHash } from 'node:crypto';
import { COG_MEDIA_TYPE, type DownloadFile } from '@eo/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../context';
import { ApiError } from '../http/errors';
import { sendRanged } from '../http/send-ranged';
import { sceneCogPath } from '../imagery/cog';
import type { DownloadQueries, DownloadRow, SceneRef } from './repository';

export const DOWNLOAD_MANIFEST_ROUTE = '/downloads/:download_id/manifest.json';
export const MANIFEST_MEDIA_TYPE = 'application/json';

export const manifestPath = (downloadId: string): string =>
  `/downloads/${encodeURIComponent(downloadId)}/manifest.json`;

/**
 * The signed URL of a scene's COG (`/rasters/...`: served from the disk cache, rendered again
 * when it was evicted, 503 with Retry-After meanwhile).
 */
export const sceneFileUrl = (ctx: AppContext, scene: SceneRef, expires: number): string =>
  ctx.imagery.signer.sign(sceneCogPath(scene), expires);

export type DownloadFileOut = z.input<typeof DownloadFile>;

/** The signed URL and the files of a `success` download (both absent before). */
export function downloadFiles(
  ctx: AppContext,
  row: DownloadRow,
): { signed_url?: string; files?: DownloadFileOut[] } {
  if (row.status !== 'success' || row.scenes_json === null) return {};
  const scenes = JSON.parse(row.scenes_json) as SceneRef[];
  const { signer } = ctx.imagery;
  const expires = signer.expiresAt();
  const files: DownloadFileOut[] = scenes.map((scene) => ({
    scene_id: scene.id,
    signed_url: sceneFileUrl(ctx, scene, expires),
    media_type: COG_MEDIA_TYPE,
  }));
  const signedUrl =
    files.length === 1 ? files[0]!.signed_url : signer.sign(manifestPath(row.id), expires);
  return { signed_url: signedUrl, files };
}

const matchesEtag = (header: string | undefined, etag: string) =>
  header !== undefined &&
  header.split(',').some((t) => [etag, `W/${etag}`, '*'].includes(t.trim()));

/** The manifest route: signed, no API key; strong ETag, one-range 206 / 416, never compressed. */
export function registerDownloadFileRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  q: DownloadQueries,
): void {
  app.get(
    DOWNLOAD_MANIFEST_ROUTE,
    { logLevel: 'warn' },
    (request: FastifyRequest, reply: FastifyReply) => {
      const { download_id: id } = request.params as { download_id: string };
      const pathname = request.url.split('?')[0]!;
      const verdict = ctx.imagery.signer.verify(pathname, request.query as Record<string, unknown>);
      if (verdict !== 'ok') {
        throw new ApiError(
          403,
          'forbidden',
          verdict === 'expired'
            ? 'This download URL has expired: read the download again for a fresh one'
            : 'Download URLs need the expires and signature parameters they were issued with (API keys are not accepted here)',
        );
      }
      const row = q.get(id);
      if (!row || row.status !== 'success') throw ApiError.notFound('Download', id);
      const scenes = JSON.parse(row.scenes_json ?? '[]') as SceneRef[];
      const { files = [] } = downloadFiles(ctx, row);
      const bytes = Buffer.from(
        JSON.stringify({
          manifest_version: 1,
          download_id: row.id,
          scenes: scenes.map((s) => ({
            scene_id: s.id,
            source: s.source,
            file: files.find((f) => f.scene_id === s.id)!,
          })),
        }),
      );
      const etag = `"dm-${createHash('sha256').update(bytes).digest('base64url').slice(0, 32)}"`;
      // no-transform: byte offsets are the file's (a resumed download asks for the rest by Range).
      void reply
        .header('etag', etag)
        .header('cache-control', 'private, max-age=3600, no-transform')
        .header('accept-ranges', 'bytes')
        .type(MANIFEST_MEDIA_TYPE);
      if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return sendRanged(request, reply, bytes, etag);
    },
  );
}
