/**
 * `client.downloads`: the provider's four download operations. Against the real service (the
 * `spec` profile: our extensions at the provider's paths), then against a recording server for
 * what the wire carries in each profile and how answers in the provider's shapes are read.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHttpServer, type TestHttpServer } from '../../test/http-server';
import { startService, type TestService } from '../../test/service';
import {
  createEoClient,
  EoApiError,
  EoResponseError,
  EoValidationError,
  type EoClient,
  type SchemaDriftEvent,
} from '../index';

describe('against the reference service', () => {
  let svc: TestService;
  let client: EoClient;
  const drift: SchemaDriftEvent[] = [];
  beforeAll(async () => {
    svc = await startService();
    client = createEoClient({
      baseUrl: svc.url,
      apiKey: svc.key,
      onSchemaDrift: (e) => drift.push(e),
    });
  });
  afterAll(async () => svc?.close());

  it('creates a catalog download and follows it to success, with its signed_url', async () => {
    const { catalogs } = await client.searchCatalogs({ limit: 1 });
    const created = await client.downloads.createForCatalog({ catalog_ids: [catalogs[0]!.id] });
    expect(created).toMatchObject({ status: 'created', signedUrl: null, reason: null });
    expect(created.raw).toMatchObject({ id: created.id, catalog_ids: [catalogs[0]!.id] });
    svc.server.app.ctx.worker.drain();
    const done = await client.downloads.getForCatalog(created.id);
    expect(done).toMatchObject({ id: created.id, status: 'success', rawStatus: 'success' });
    expect(done!.signedUrl).toMatch(/\?expires=\d+&signature=/);
    expect(drift).toEqual([]);
  });

  it('one Idempotency-Key, one download: the repeat is the first answer', async () => {
    const { catalogs } = await client.searchCatalogs({ limit: 1 });
    const body = { catalog_ids: [catalogs[0]!.id] };
    const a = await client.downloads.createForCatalog(body, { idempotencyKey: 'dl-once' });
    const b = await client.downloads.createForCatalog(body, { idempotencyKey: 'dl-once' });
    expect(b.id).toBe(a.id);
  });

  it('creates an AOI download of a scene asset and reads it under its AOI', async () => {
    const { features } = await client.listArchiveItems('col-aurora-l2a', { limit: 1 });
    const scene = features[0]!;
    const [w, s, e, n] = (scene.bbox ?? []).map(Number) as [number, number, number, number];
    const [cx, cy] = [(w + e) / 2, (s + n) / 2];
    const d = Math.min(e - w, n - s) / 10;
    const aoi = await client.createAoi({
      name: 'Download site',
      description: 'a site',
      satellite_id: String(scene.properties?.['rd:sat_id'] ?? 'sat-aurora-1'),
      provider: 'aurora-archive',
      project_id: 'prj-demo-crops',
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [cx - d, cy - d],
            [cx + d, cy - d],
            [cx + d, cy + d],
            [cx - d, cy + d],
            [cx - d, cy - d],
          ],
        ],
      },
      item_ids: [scene.id],
    });
    svc.server.app.ctx.worker.drain();
    const { assets } = await client.listAoiAssets(aoi.aoi_id);
    const created = await client.downloads.createForAoi(aoi.aoi_id, { asset_ids: [assets[0]!.id] });
    expect(created.status).toBe('created');
    svc.server.app.ctx.worker.drain();
    const done = await client.downloads.getForAoi(aoi.aoi_id, created.id);
    expect(done).toMatchObject({ id: created.id, status: 'success' });
    expect(await client.downloads.getForAoi('aoi_other', created.id)).toBeNull();
  });

  it('unknown downloads are null; unknown ids to download are a 404; bad input is refused unsent', async () => {
    expect(await client.downloads.getForCatalog('dl_unknown')).toBeNull();
    const e = await client.downloads
      .createForCatalog({ catalog_ids: ['cat_unknown'] })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(EoApiError);
    expect(e).toMatchObject({ status: 404, endpoint: 'createCatalogDownload' });
    const bad = await client.downloads
      .createForCatalog({ catalog_ids: ['a'], order_item_ids: ['b'] })
      .catch((x: unknown) => x);
    expect(bad).toBeInstanceOf(EoValidationError);
    expect((bad as EoValidationError).details[0]!.path).toBe('order_item_ids');
  });
});

describe('on the wire, in each profile', () => {
  let srv: TestHttpServer;
  let spec: EoClient;
  let provider: EoClient;
  const drift: SchemaDriftEvent[] = [];
  beforeAll(async () => {
    srv = await startHttpServer();
    const base = {
      baseUrl: srv.url,
      apiKey: 'eok_downloads_key',
      onSchemaDrift: (e: SchemaDriftEvent) => drift.push(e),
      retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
    };
    spec = createEoClient(base);
    provider = createEoClient({ ...base, dialect: 'provider-v0' });
  });
  afterAll(async () => srv?.close());
  beforeEach(() => {
    srv.requests.length = 0;
    drift.length = 0;
  });

  it('provider-v0 sends both id lists; spec sends the one given; both with an Idempotency-Key', async () => {
    srv.setHandler(() => ({ status: 201, json: { id: 'd1', status: 'created' } }));
    await provider.downloads.createForCatalog({ order_item_ids: ['oi-1'] });
    await spec.downloads.createForCatalog({ order_item_ids: ['oi-1'] }, { idempotencyKey: 'k-1' });
    const [p, s] = srv.requests;
    expect(p!.path).toBe('/v0/catalogs/download');
    expect(p!.body).toEqual({ catalog_ids: [], order_item_ids: ['oi-1'] });
    expect(s!.body).toEqual({ order_item_ids: ['oi-1'] });
    expect(p!.headers['idempotency-key']).toMatch(/\S/);
    expect(s!.headers['idempotency-key']).toBe('k-1');
  });

  it("reads the provider's AOI read model: download_id, SUCCESS in capitals, its signed_url", async () => {
    srv.setHandler(() => ({
      json: {
        download_id: 'dc01addf',
        signed_url: 'https://storage.account/download',
        status: 'SUCCESS',
      },
    }));
    const d = await provider.downloads.getForAoi('aoi 1', 'dc01addf');
    expect(srv.requests[0]!.path).toBe('/v0/aois/aoi%201/downloads/dc01addf');
    expect(d).toMatchObject({
      id: 'dc01addf',
      status: 'success',
      rawStatus: 'SUCCESS',
      signedUrl: 'https://storage.account/download',
      files: [],
    });
    expect(drift).toEqual([]);
  });

  it('drift is reported and the answer still read; the raw body is kept without the key', async () => {
    srv.setHandler(() => ({
      json: { id: 7, status: 3, signed_url: 'https://x/y', echo: 'eok_downloads_key' },
    }));
    const d = await spec.downloads.getForCatalog('7');
    expect(d).toMatchObject({
      id: '7',
      status: 'unknown',
      rawStatus: null,
      signedUrl: 'https://x/y',
    });
    expect(drift.map((e) => e.endpoint)).toEqual(['getCatalogDownload']);
    expect(JSON.stringify(d!.raw)).not.toContain('eok_downloads_key');
  });

  it('an answer without an id is unusable (kept on the error); a read is retried on 503', async () => {
    srv.setHandler(() => ({ status: 201, json: { status: 'created' } }));
    const e = await spec.downloads.createForAoi('a', { asset_ids: ['x'] }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(EoResponseError);
    expect((e as EoResponseError).message).toContain('download_id');
    expect((e as EoResponseError).body).toEqual({ status: 'created' });

    let n = 0;
    srv.setHandler(() =>
      ++n === 1 ? { status: 503, json: {} } : { json: { id: 'd', status: 'in_progress' } },
    );
    expect((await spec.downloads.getForCatalog('d'))?.status).toBe('in_progress');
    expect(srv.requests.filter((r) => r.method === 'GET')).toHaveLength(2);
  });

  it('a create is not resent to a service that never said it honours the key', async () => {
    srv.setHandler(() => ({ status: 503, json: {} }));
    const e = await provider.downloads
      .createForCatalog({ catalog_ids: ['c'] })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(EoApiError);
    expect(srv.requests).toHaveLength(1);
  });
});
