/**
 * Downloads: the provider's operations that hand out a signed URL to a scene's data, served by
 * our reference service as documented extensions (`extensions.ts`) at the provider's paths and
 * in its shapes (`real-service/openapi.json`: `clerk.DownloadRequest` / `clerk.DownloadResponse`,
 * `atlas.DownloadCreateModel` / `atlas.DownloadReadModel`):
 *
 * - `POST /v0/catalogs/download` with `catalog_ids` or `order_item_ids` (exactly one non-empty),
 *   answered `{ id, status, signed_url once ready }`; `GET /v0/catalogs/download/{download_id}`.
 * - `POST /v0/aois/{aoi_id}/downloads` with `asset_ids`, answered `{ download_id, status,
 *   signed_url once ready }`; `GET /v0/aois/{aoi_id}/downloads/{download_id}`.
 *
 * A download is asynchronous: `created` -> `in_progress` -> `success` (then `signed_url` is set)
 * or `failed`. The provider writes the catalog statuses in lower case and shows `SUCCESS` for an
 * AOI download, so a client reads a status with `downloadStatusOf` (any case). Our service adds
 * fields the provider's shapes do not have (`files`, one per scene, `reason`, timestamps);
 * responses are loose, so either service's answer parses.
 */
import { z } from 'zod';
import { LIMITS } from './limits';
import { IdParam } from './requests/params';
import { Id } from './resources/common';
import { IsoTimestamp } from './time/schemas';

export const DOWNLOAD_STATUSES = ['created', 'in_progress', 'success', 'failed'] as const;
export type DownloadStatus = (typeof DOWNLOAD_STATUSES)[number];

/** A status as either service writes it (`success`, `SUCCESS`, ` In_Progress `); else `unknown`. */
export function downloadStatusOf(raw: unknown): DownloadStatus | 'unknown' {
  if (typeof raw !== 'string') return 'unknown';
  const s = raw.trim().toLowerCase();
  return (DOWNLOAD_STATUSES as readonly string[]).includes(s) ? (s as DownloadStatus) : 'unknown';
}

/** A status after which nothing changes any more. */
export const isFinalDownloadStatus = (s: DownloadStatus | 'unknown'): boolean =>
  s === 'success' || s === 'failed';

/** What our service's scene files are: Cloud-Optimized GeoTIFFs. */
export const COG_MEDIA_TYPE = 'image/tiff; application=geotiff; profile=cloud-optimized';

const idList = (what: string) =>
  z
    .array(z.string().min(1))
    .max(LIMITS.maxDownloadScenes, `at most ${LIMITS.maxDownloadScenes} ${what} in one download`);

/** `POST /v0/catalogs/download`: catalog record ids or order item ids, exactly one list non-empty. */
export const CreateCatalogDownloadRequest = z
  .strictObject({
    catalog_ids: idList('catalog ids').optional(),
    order_item_ids: idList('order item ids').optional(),
  })
  .superRefine((d, ctx) => {
    const hasCatalogs = (d.catalog_ids?.length ?? 0) > 0;
    const hasItems = (d.order_item_ids?.length ?? 0) > 0;
    if (hasCatalogs === hasItems) {
      ctx.addIssue({
        code: 'custom',
        path: hasCatalogs ? ['order_item_ids'] : ['catalog_ids'],
        message: hasCatalogs
          ? 'give catalog_ids or order_item_ids, not both'
          : 'give exactly one of catalog_ids or order_item_ids (non-empty)',
      });
    }
  });
export type CreateCatalogDownloadRequest = z.infer<typeof CreateCatalogDownloadRequest>;

/** `POST /v0/aois/{aoi_id}/downloads`: the AOI's assets to download. */
export const CreateAoiDownloadRequest = z.strictObject({
  asset_ids: idList('asset ids').min(1, 'asset_ids needs at least one asset id'),
});
export type CreateAoiDownloadRequest = z.infer<typeof CreateAoiDownloadRequest>;

/** One scene's file of a download (our extension: the provider's answer has one `signed_url`). */
export const DownloadFile = z.looseObject({
  /** The catalog record or archive scene the file holds. */
  scene_id: z.string(),
  signed_url: z.string(),
  media_type: z.string().nullish(),
});
export type DownloadFile = z.infer<typeof DownloadFile>;

/** Fields our service adds to both shapes (absent from the provider's). */
const downloadExtras = {
  /** Until `success`: absent. Then one per scene, in request order. */
  files: z.array(DownloadFile).nullish(),
  /** Why a `failed` download failed. */
  reason: z.string().nullish(),
  created_at: IsoTimestamp.nullish(),
  updated_at: IsoTimestamp.nullish(),
};

/** `clerk.DownloadResponse`: `signed_url` only once the status is `success`. */
export const CatalogDownload = z.looseObject({
  id: Id,
  status: z.string(),
  signed_url: z.string().nullish(),
  catalog_ids: z.array(z.string()).nullish(),
  order_item_ids: z.array(z.string()).nullish(),
  ...downloadExtras,
});
export type CatalogDownload = z.infer<typeof CatalogDownload>;

/** `atlas.DownloadReadModel`: the id is `download_id`. */
export const AoiDownload = z.looseObject({
  download_id: Id,
  status: z.string(),
  signed_url: z.string().nullish(),
  aoi_id: z.string().nullish(),
  asset_ids: z.array(z.string()).nullish(),
  ...downloadExtras,
});
export type AoiDownload = z.infer<typeof AoiDownload>;

export const CatalogDownloadIdParams = z.strictObject({ download_id: IdParam });
export type CatalogDownloadIdParams = z.infer<typeof CatalogDownloadIdParams>;
export const AoiDownloadsParams = z.strictObject({ aoi_id: IdParam });
export const AoiDownloadIdParams = z.strictObject({ aoi_id: IdParam, download_id: IdParam });
export type AoiDownloadIdParams = z.infer<typeof AoiDownloadIdParams>;

/** Entries of `extensionEndpoints` (extensions.ts): the provider's paths, methods and statuses. */
export const downloadEndpoints = {
  createCatalogDownload: {
    method: 'POST',
    path: '/v0/catalogs/download',
    kind: 'create',
    status: 201,
    summary: "Create a download of catalog records or order items (extension: the real service's)",
    body: CreateCatalogDownloadRequest,
    response: CatalogDownload,
  },
  getCatalogDownload: {
    method: 'GET',
    path: '/v0/catalogs/download/:download_id',
    kind: 'read',
    status: 200,
    summary:
      "Read a download: its status, and its signed_url once ready (extension: the real service's)",
    params: CatalogDownloadIdParams,
    response: CatalogDownload,
  },
  createAoiDownload: {
    method: 'POST',
    path: '/v0/aois/:aoi_id/downloads',
    kind: 'create',
    status: 201,
    summary: "Create a download of an AOI's assets (extension: the real service's)",
    params: AoiDownloadsParams,
    body: CreateAoiDownloadRequest,
    response: AoiDownload,
  },
  getAoiDownload: {
    method: 'GET',
    path: '/v0/aois/:aoi_id/downloads/:download_id',
    kind: 'read',
    status: 200,
    summary: "Read a download of an AOI's assets (extension: the real service's)",
    params: AoiDownloadIdParams,
    response: AoiDownload,
  },
} as const;
