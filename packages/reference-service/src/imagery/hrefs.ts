/**
 * Where quicklook hrefs are emitted, and what a quicklook URL points at.
 *
 * - Archive features (4.14 list, 4.5 search): their `thumbnail` and `overview` assets get a
 *   signed URL when the response is built.
 * - Catalog records (4.3 search): stored as the JSON sent on the wire, with a storage URI as
 *   the href (`s3://eo-archive/...` or the tasking data domain); the page text is rewritten
 *   at response time, so the stored record never holds an expiring URL.
 * - AOI assets have no href (their `path` is a storage location in the spec) and keep it.
 */
import { QUICKLOOK_VARIANTS, type QuicklookVariant } from '@eo/domain';
import type { ArchiveFeatureIn } from '../archive/feature';
import { sceneFeature, type ArchiveSceneRow } from '../archive/repository';
import type { AppContext } from '../context';
import { quicklookSceneOf, type QuicklookScene } from './quicklook';
import type { UrlSigner } from './signing';

export const QUICKLOOK_ROUTE = '/quicklooks/:source/:id/:file';
export type QuicklookSource = 'archive' | 'catalog';

export function quicklookPath(source: QuicklookSource, id: string, variant: QuicklookVariant) {
  return `/quicklooks/${source}/${encodeURIComponent(id)}/${variant}.png`;
}

const isVariant = (k: string): k is QuicklookVariant =>
  (QUICKLOOK_VARIANTS as readonly string[]).includes(k);

/** An archive feature with signed URLs, issued to `org`, as the hrefs of its quicklook assets. */
export function withSignedQuicklooks(
  feature: ArchiveFeatureIn,
  signer: UrlSigner,
  org: string,
): ArchiveFeatureIn {
  const assets = feature.assets;
  if (!assets) return feature;
  const out: NonNullable<ArchiveFeatureIn['assets']> = {};
  const expires = signer.expiresAt();
  for (const [k, a] of Object.entries(assets))
    out[k] =
      isVariant(k) && a
        ? { ...a, href: signer.sign(quicklookPath('archive', feature.id, k), expires, org) }
        : a;
  return { ...feature, assets: out };
}

const STORED_QUICKLOOK_HREF =
  /"href":"(?:s3:\/\/eo-archive\/|https:\/\/data\.eo-field-desk\.example\/)[^"\\]*\/(thumbnail|overview)\.png"/g;
const RECORD_ID = /^\{"id":"([^"\\]+)"/;

/** A stored catalog record's JSON text with signed URLs, issued to `org`, for its quicklook hrefs. */
export function signCatalogRecordJson(
  json: string,
  signer: UrlSigner,
  expires: number,
  org: string,
): string {
  if (!json.includes('.png"')) return json;
  const id = RECORD_ID.exec(json)?.[1];
  if (id === undefined) return json;
  return json.replace(
    STORED_QUICKLOOK_HREF,
    (_m, variant: QuicklookVariant) =>
      `"href":${JSON.stringify(signer.sign(quicklookPath('catalog', id, variant), expires, org))}`,
  );
}

/**
 * A stored catalog record's JSON as the service sends it now (quicklook hrefs signed), for
 * tests of client packages that compare their mirror with the service's database.
 */
export function catalogRecordAsSent(app: { ctx: AppContext }, json: string): string {
  const { signer } = app.ctx.imagery;
  const id = RECORD_ID.exec(json)?.[1];
  const org = app.ctx.sqlite
    .prepare<[string], { org_id: string }>('SELECT org_id FROM catalog_records WHERE id = ?')
    .get(id ?? '')?.org_id;
  return signCatalogRecordJson(json, signer, signer.expiresAt(), org ?? '');
}

/** Looks up what a quicklook URL shows: an archive scene by id, or a catalog record by id. */
export function quicklookSourceOf(ctx: AppContext) {
  const scene = ctx.sqlite.prepare<[string], ArchiveSceneRow>(
    'SELECT id, collection_id, satellite_id, feature_json FROM archive_scenes WHERE id = ?',
  );
  const record = ctx.sqlite.prepare<[string], { record_json: string }>(
    'SELECT record_json FROM catalog_records WHERE id = ?',
  );
  return (source: QuicklookSource, id: string): QuicklookScene | null => {
    if (source === 'archive') {
      const row = scene.get(id);
      return row ? quicklookSceneOf(sceneFeature(row)) : null;
    }
    if (source === 'catalog') {
      const row = record.get(id);
      if (!row) return null;
      const details = (JSON.parse(row.record_json) as { details?: unknown }).details;
      return details && typeof details === 'object' ? quicklookSceneOf(details) : null;
    }
    return null;
  };
}
