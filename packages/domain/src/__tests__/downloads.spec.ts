import { describe, expect, it } from 'vitest';
import {
  AoiDownload,
  CatalogDownload,
  CreateAoiDownloadRequest,
  CreateCatalogDownloadRequest,
  downloadEndpoints,
  downloadStatusOf,
  extensionEndpoints,
  LIMITS,
  toWireBody,
} from '../index';

describe('download schemas', () => {
  it("read the provider's examples (clerk.DownloadResponse, atlas.DownloadReadModel)", () => {
    expect(
      CatalogDownload.parse({
        id: '47435e2b-d8c4-41ff-9de9-2be3bfc92276',
        signed_url: 'http://signed_url_link',
        status: 'success',
      }).signed_url,
    ).toBe('http://signed_url_link');
    expect(
      AoiDownload.parse({
        download_id: 'dc01addf-b6c3-4fa9-9a49-dcdcb4c99229',
        signed_url: 'https://storage.account/download',
        status: 'SUCCESS',
      }).download_id,
    ).toBe('dc01addf-b6c3-4fa9-9a49-dcdcb4c99229');
    // Not ready yet: no signed_url; unknown fields kept.
    expect(CatalogDownload.parse({ id: 'd', status: 'created', extra: 1 })).toEqual({
      id: 'd',
      status: 'created',
      extra: 1,
    });
    expect(CatalogDownload.safeParse({ status: 'created' }).success).toBe(false);
  });

  it('a catalog download names catalog ids or order item ids, exactly one list non-empty', () => {
    expect(CreateCatalogDownloadRequest.safeParse({ catalog_ids: ['c1'] }).success).toBe(true);
    // The provider's request shape: both keys, one empty.
    expect(
      CreateCatalogDownloadRequest.safeParse({ catalog_ids: [], order_item_ids: ['oi'] }).success,
    ).toBe(true);
    for (const bad of [
      {},
      { catalog_ids: [] },
      { catalog_ids: ['c'], order_item_ids: ['o'] },
      { catalog_ids: [''] },
      { catalog_ids: Array.from({ length: LIMITS.maxDownloadScenes + 1 }, (_, k) => `c${k}`) },
      { catalog_ids: ['c'], more: true },
    ])
      expect(CreateCatalogDownloadRequest.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    expect(CreateAoiDownloadRequest.safeParse({ asset_ids: ['a'] }).success).toBe(true);
    expect(CreateAoiDownloadRequest.safeParse({ asset_ids: [] }).success).toBe(false);
  });

  it('reads a status in any case; anything else is unknown', () => {
    expect(downloadStatusOf('success')).toBe('success');
    expect(downloadStatusOf('SUCCESS')).toBe('success');
    expect(downloadStatusOf(' In_Progress ')).toBe('in_progress');
    expect(downloadStatusOf('done')).toBe('unknown');
    expect(downloadStatusOf(null)).toBe('unknown');
  });

  it('the four operations are extension entries at the provider paths; provider-v0 sends both lists', () => {
    for (const [id, def] of Object.entries(downloadEndpoints))
      expect(extensionEndpoints[id as keyof typeof downloadEndpoints]).toBe(def);
    expect(
      Object.values(downloadEndpoints).map((d) => `${d.method} ${d.path} ${d.status}`),
    ).toEqual([
      'POST /v0/catalogs/download 201',
      'GET /v0/catalogs/download/:download_id 200',
      'POST /v0/aois/:aoi_id/downloads 201',
      'GET /v0/aois/:aoi_id/downloads/:download_id 200',
    ]);
    expect(toWireBody('provider-v0', 'createCatalogDownload', { catalog_ids: ['c'] })).toEqual({
      catalog_ids: ['c'],
      order_item_ids: [],
    });
    expect(toWireBody('spec', 'createCatalogDownload', { catalog_ids: ['c'] })).toEqual({
      catalog_ids: ['c'],
    });
  });
});
