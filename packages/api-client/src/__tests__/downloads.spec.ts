/**
 * `client.downloads`: the provider's four download operations. Against the real service (the
 * `spec` profile: our extensions at the provider's paths), then against a recording server for
 * what the wire carries in each profile and how answers in the provider's shapes are read.
 */
import { insertSquareScene } from '@eo/reference-service';
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

/** A 2 km Aurora scene (its COG renders in a second or two; a demo scene's takes a minute). */
const SITE = {
  id: 'DOWNLOADS_AUR1_SITE',
  lon: 11.35,
  lat: 44.5,
  km: 2,
  datetime: '2024-06-20T10:30:00Z',
  cloudCover: 10,
} as const;
const d = 0.004;
const siteSquare = {
  type: 'Polygon' as const,
  coordinates: [
    [
      [SITE.lon - d, SITE.lat - d],
      [SITE.lon + d, SITE.lat - d],
      [SITE.lon + d, SITE.lat + d],
      [SITE.lon - d, SITE.lat + d],
      [SITE.lon - d, SITE.lat - d],
    ] as Array<[number, number]>,
  ],
};

describe('against the reference service', () => {
  let svc: TestService;
  let client: EoClient;
  /** The site scene's catalog record (an archive order of it, fulfilled). */
  let siteRecord: string;
  const drift: SchemaDriftEvent[] = [];
  beforeAll(async () => {
    svc = await startService();
    client = createEoClient({
      baseUrl: svc.url,
      apiKey: svc.key,
      onSchemaDrift: (e) => drift.push(e),
    });
    insertSquareScene(svc.server.app.ctx.sqlite, SITE);
    const order = await client.createOrder({
      order_items: [
        {
          project_id: 'prj-demo-crops',
          name: 'Download site',
          geometry: {
            type: 'FeatureCollection',
            features: [{ type: 'Feature', geometry: siteSquare }],
          },
          item_ids: [SITE.id],
        },
      ],
    });
    svc.server.app.ctx.worker.drain();
    const { order_items } = await client.listOrderItems({ order_ids: [order.id] });
    siteRecord = String(order_items[0]?.tasks?.[0]?.catalog_id);
    expect(siteRecord).toMatch(/./);
  });
  afterAll(async () => svc?.close());

  /**
   * Runs the service's steps and waits for its scene renders until no download is unfinished
   * (a download waits `in_progress` while its scene's COG renders), bounded in rounds.
   */
  async function settle(): Promise<void> {
    const { ctx } = svc.server.app;
    const unfinished = ctx.sqlite
      .prepare("SELECT count(*) FROM downloads WHERE status IN ('created', 'in_progress')")
      .pluck();
    for (let round = 0; round < 20; round++) {
      ctx.worker.drain(300);
      await ctx.imagery.cogs.settled();
      if (unfinished.get() === 0) return;
    }
    throw new Error('downloads still unfinished after 20 rounds of steps and renders');
  }

  it('creates a catalog download and follows it to success, with its signed_url', async () => {
    const created = await client.downloads.createForCatalog({ catalog_ids: [siteRecord] });
    expect(created).toMatchObject({ status: 'created', signedUrl: null, reason: null });
    expect(created.raw).toMatchObject({ id: created.id, catalog_ids: [siteRecord] });
    await settle();
    const done = await client.downloads.getForCatalog(created.id);
    expect(done).toMatchObject({ id: created.id, status: 'success', rawStatus: 'success' });
    expect(done!.signedUrl).toMatch(/\?expires=\d+&signature=/);
    expect(drift).toEqual([]);
  });

  it('one Idempotency-Key, one download: the repeat is the first answer', async () => {
    const body = { catalog_ids: [siteRecord] };
    const a = await client.downloads.createForCatalog(body, { idempotencyKey: 'dl-once' });
    const b = await client.downloads.createForCatalog(body, { idempotencyKey: 'dl-once' });
    expect(b.id).toBe(a.id);
    await settle();
  });

  it('creates an AOI download of a scene asset and reads it under its AOI', async () => {
    const aoi = await client.createAoi({
      name: 'Download site',
      description: 'a site',
      satellite_id: 'sat-aurora-1',
      provider: 'aurora-archive',
      project_id: 'prj-demo-crops',
      geometry: siteSquare,
      item_ids: [SITE.id],
    });
    svc.server.app.ctx.worker.drain();
    const { assets } = await client.listAoiAssets(aoi.aoi_id);
    const created = await client.downloads.createForAoi(aoi.aoi_id, { asset_ids: [assets[0]!.id] });
    expect(created.status).toBe('created');
    await settle();
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
