/**
 * The provider's download operations (`downloads.ts` in @eo/domain), in both profiles: our
 * reference service offers them as extensions at the provider's paths and in its shapes, so the
 * paths are the same; `provider-v0` sends a catalog download with both id lists (the unused one
 * empty, as its document requires). Answers are read tolerantly (a catalog download's id is
 * `id`, an AOI download's `download_id`; a status in any case) into one `DownloadState`, with
 * the body as received kept in `raw` and any schema drift reported through `onSchemaDrift`.
 *
 * Creates carry an Idempotency-Key (pass the one you stored before sending, to stay exactly-once
 * across restarts) and are resent only to a service that said it honours it (`transport.ts`);
 * reads are retried like every read, and a 404 resolves to `null` (unknown there, or a service
 * without the operation). The `signed_url` is never fetched here: it is another origin's (no
 * API key goes there), read by `@eo/sync`.
 */
import {
  AoiDownload,
  CatalogDownload,
  CreateAoiDownloadRequest,
  CreateCatalogDownloadRequest,
  downloadEndpoints,
  downloadStatusOf,
  fillPath,
  formatIssuePath,
  toWireBody,
  type DownloadStatus,
  type ServiceDialect,
} from '@eo/domain';
import type { z } from 'zod';
import { describeValue } from './decode';
import { EoApiError, EoResponseError, EoValidationError, redactValue } from './errors';
import type { CallOptions, ResolvedOptions } from './options';
import type { Transport } from './transport';

type DownloadEndpointId = keyof typeof downloadEndpoints;

/** One scene's file of a download (our service lists them; the provider has one `signed_url`). */
export interface DownloadFileRef {
  readonly sceneId: string;
  readonly signedUrl: string;
  readonly mediaType: string | null;
}

/** A download as either service answers it. */
export interface DownloadState {
  /** `id` (catalog downloads) or `download_id` (AOI downloads). */
  readonly id: string;
  readonly status: DownloadStatus | 'unknown';
  /** The status as sent (`SUCCESS`, `in_progress`, ...). */
  readonly rawStatus: string | null;
  /** Set once the download succeeded. */
  readonly signedUrl: string | null;
  /** One per scene where the service lists them (ours); `[]` otherwise. */
  readonly files: readonly DownloadFileRef[];
  /** Why it failed, when the service says. */
  readonly reason: string | null;
  /** The body as received (API key redacted). */
  readonly raw: Readonly<Record<string, unknown>>;
}

export type CatalogDownloadInput = z.input<typeof CreateCatalogDownloadRequest>;
export type AoiDownloadInput = z.input<typeof CreateAoiDownloadRequest>;

export interface DownloadCalls {
  /** `POST /v0/catalogs/download`: `{ catalog_ids }` or `{ order_item_ids }`. */
  createForCatalog(input: CatalogDownloadInput, options?: CallOptions): Promise<DownloadState>;
  /** `GET /v0/catalogs/download/{download_id}`; null on 404. */
  getForCatalog(downloadId: string, options?: CallOptions): Promise<DownloadState | null>;
  /** `POST /v0/aois/{aoi_id}/downloads`: `{ asset_ids }`. */
  createForAoi(
    aoiId: string,
    input: AoiDownloadInput,
    options?: CallOptions,
  ): Promise<DownloadState>;
  /** `GET /v0/aois/{aoi_id}/downloads/{download_id}`; null on 404. */
  getForAoi(
    aoiId: string,
    downloadId: string,
    options?: CallOptions,
  ): Promise<DownloadState | null>;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The id a download answer carries, under either name (a number taken as its text). */
function idOf(body: Record<string, unknown>, key: 'id' | 'download_id'): string | null {
  for (const k of [key, key === 'id' ? 'download_id' : 'id']) {
    const v = body[k];
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
  }
  return null;
}

function filesOf(v: unknown): DownloadFileRef[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((f) => {
    if (!isRecord(f)) return [];
    const sceneId = str(f.scene_id);
    const signedUrl = str(f.signed_url);
    return sceneId && signedUrl ? [{ sceneId, signedUrl, mediaType: str(f.media_type) }] : [];
  });
}

export function makeDownloadCalls(
  transport: Transport,
  onDrift: ResolvedOptions['onSchemaDrift'],
  dialect: ServiceDialect,
  validateRequests: boolean,
): DownloadCalls {
  const defs = downloadEndpoints;

  function checked(id: DownloadEndpointId, schema: z.ZodType, input: unknown): void {
    if (!validateRequests) return;
    const r = schema.safeParse(input);
    if (r.success) return;
    const details = r.error.issues.map((i) => ({
      path: formatIssuePath(i.path),
      message: i.message,
      in: 'body' as const,
    }));
    const first = details[0]!;
    throw new EoValidationError({
      message: `Invalid body for ${id}: ${first.path ? `${first.path}: ` : ''}${first.message}`,
      endpoint: id,
      method: defs[id].method,
      details,
      attempts: 0,
    });
  }

  /** One call; the answer read into a DownloadState (drift reported), or null on a read's 404. */
  async function call(
    id: DownloadEndpointId,
    params: Record<string, string>,
    body: unknown,
    options: CallOptions | undefined,
  ): Promise<DownloadState | null> {
    const def = defs[id];
    let path: string;
    try {
      path = fillPath(def.path, params);
    } catch (e) {
      throw new EoValidationError({
        message: `Invalid params for ${id}: ${(e as Error).message}`,
        endpoint: id,
        method: def.method,
        details: [{ path: '', message: (e as Error).message, in: 'params' }],
        attempts: 0,
      });
    }
    let res;
    try {
      res = await transport.send(
        {
          endpoint: id,
          method: def.method,
          kind: def.kind,
          path,
          body: body === undefined ? undefined : JSON.stringify(toWireBody(dialect, id, body)),
        },
        options,
      );
    } catch (e) {
      if (def.kind === 'read' && e instanceof EoApiError && e.status === 404) return null;
      throw e;
    }
    const json = res.json;
    const key = id === 'createAoiDownload' || id === 'getAoiDownload' ? 'download_id' : 'id';
    const downloadId = isRecord(json) ? idOf(json, key) : null;
    if (!isRecord(json) || downloadId === null) {
      throw new EoResponseError({
        endpoint: id,
        method: def.method,
        path,
        status: res.status,
        message: `${def.method} ${path}: unusable response: ${isRecord(json) ? `"${key}" is ${describeValue(json[key])}` : describeValue(json)} (expected a download with a non-empty string ${key})`,
        body: redactValue(json, transport.secrets),
      });
    }
    const schema = key === 'id' ? CatalogDownload : AoiDownload;
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      try {
        onDrift?.({
          endpoint: id,
          issues: parsed.error.issues.map((i) => ({
            path: formatIssuePath(i.path),
            message: i.message,
          })),
        });
      } catch {
        // A reporting hook must never break a call.
      }
    }
    const raw = redactValue(json, transport.secrets) as Record<string, unknown>;
    const rawStatus = typeof json.status === 'string' ? json.status : null;
    return {
      id: downloadId,
      status: downloadStatusOf(rawStatus),
      rawStatus,
      signedUrl: str(json.signed_url),
      files: filesOf(json.files),
      reason: str(json.reason),
      raw,
    };
  }

  return {
    async createForCatalog(input, options) {
      checked('createCatalogDownload', CreateCatalogDownloadRequest, input);
      return (await call('createCatalogDownload', {}, input, options))!;
    },
    getForCatalog: (downloadId, options) =>
      call('getCatalogDownload', { download_id: downloadId }, undefined, options),
    async createForAoi(aoiId, input, options) {
      checked('createAoiDownload', CreateAoiDownloadRequest, input);
      return (await call('createAoiDownload', { aoi_id: aoiId }, input, options))!;
    },
    getForAoi: (aoiId, downloadId, options) =>
      call('getAoiDownload', { aoi_id: aoiId, download_id: downloadId }, undefined, options),
  };
}
