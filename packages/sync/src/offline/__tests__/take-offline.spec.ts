/**
 * Taking a site offline against the real reference service (its worker running), through a
 * relay that records where every request went: the download asked for exactly once (also after
 * a crash mid-request, against a service that honours the key and one that does not), followed
 * to success, its COG's tiles for the site fetched by ranges without the API key, and the window
 * stored with its size and hash; and, against a stand-in for the provider whose file is a zip,
 * the whole-file fallback.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createEoClient, type EoClient } from '@eo/api-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openMirrorDatabase, type MirrorDatabase } from '../../db/open';
import { tempDir } from '../../db/__tests__/temp';
import { areaAround } from '../area';
import { fileSha256, rastersDir } from '../raster-files';
import { makeOfflineRasterStore } from '../store';
import { OfflineError, takeOffline, type OfflineProgress, type SiteRequest } from '../take-offline';
import type { Relay } from './relay';
import { startFileServer } from './file-server';
import { startProviderStub } from './provider-stub';
import { SITE_SCENE, startOfflineService, type OfflineService } from './service';

const tmp = tempDir('take-offline');
let svc: OfflineService;
let key: string;
let relay: Relay;
let assets: Relay;
let catalogIds: readonly string[];
let n = 0;

beforeAll(async () => {
  svc = await startOfflineService();
  ({ key, relay, assets, catalogIds } = svc);
  expect(catalogIds.length).toBe(2);
});
afterAll(async () => {
  await svc?.close();
  tmp.remove();
});
beforeEach(() => {
  relay.requests.length = 0;
  assets.requests.length = 0;
  relay.ignoreKey = false;
  relay.lose = null;
});

const client = (): EoClient => createEoClient({ baseUrl: relay.url, apiKey: key });
const mirror = (): MirrorDatabase => openMirrorDatabase(path.join(tmp.dir, `m${++n}.db`));
const site = (catalogId: string): SiteRequest => ({
  scene: { kind: 'catalog', id: catalogId },
  area: areaAround(SITE_SCENE.lon, SITE_SCENE.lat, 300),
  resolution: 'native',
});
const options = (c: EoClient, progress?: OfflineProgress[]) => ({
  client: c,
  serviceUrl: relay.url,
  budgetBytes: 1e9,
  pollMs: 5,
  maxPollMs: 20,
  onProgress: (p: OfflineProgress) => progress?.push(p),
});
const creates = () =>
  relay.requests.filter((r) => r.method === 'POST' && r.url === '/v0/catalogs/download').length;
const serviceDownloads = () => svc.downloads();

describe('takeOffline', () => {
  it('asks once, follows to success, reads the tiles of the site by ranges without the key, stores the window', async () => {
    const db = mirror();
    const progress: OfflineProgress[] = [];
    const raster = await takeOffline(db, site(catalogIds[0]!), options(client(), progress));
    expect(raster).toMatchObject({
      state: 'stored',
      mode: 'window',
      level: 0,
      epsg: 32632,
      nodata: 0,
      scene: { kind: 'catalog', ref: catalogIds[0], sceneId: catalogIds[0] },
      // The order's bandset (bs-aurora-rgbn).
      bands: ['B02', 'B03', 'B04', 'B08'],
      message: null,
    });
    expect(raster.width! % 512 === 0 || raster.width! < 1024).toBe(true);
    expect(creates()).toBe(1);
    // The file came from the asset origin by ranges, and no request there carried the key.
    expect(assets.requests.length).toBeGreaterThan(1);
    for (const r of assets.requests) {
      expect(r.headers.authorization).toBeUndefined();
      expect(r.headers.range).toMatch(/^bytes=\d+-\d+$/);
    }
    // Stored owner-only, with the size and hash of its row.
    const file = raster.file!;
    expect(path.dirname(file)).toBe(rastersDir(db.file));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(fs.statSync(file).size).toBe(raster.bytes);
    const row = makeOfflineRasterStore(db.sqlite).get(raster.id)!;
    expect(fileSha256(file)).toBe(row.sha256);
    expect(makeOfflineRasterStore(db.sqlite).parts(raster.id)).toEqual([]);
    expect(fs.readdirSync(path.dirname(file))).toEqual([path.basename(file)]);
    // The steps, in order: the plan is said before a tile is fetched.
    const phases = [...new Set(progress.map((p) => p.phase))];
    expect(phases).toEqual([
      'requesting',
      'waiting',
      'opening',
      'planned',
      'tiles',
      'writing',
      'stored',
    ]);
    const planned = progress.find((p) => p.phase === 'planned')!;
    expect(planned).toMatchObject({ level: 0, pixelSize: 3 });
    expect(raster.fetchedBytes).toBeGreaterThan(0);
    expect(raster.fetchedBytes).toBeLessThanOrEqual(raster.plannedBytes! * 1.05);

    // The same request again: answered from the mirror, nothing asked.
    relay.requests.length = 0;
    const again = await takeOffline(db, site(catalogIds[0]!), options(client()));
    expect(again.id).toBe(raster.id);
    expect(relay.requests).toEqual([]);
    db.close();
  });

  it('a coarser resolution reads an overview level', async () => {
    const db = mirror();
    const raster = await takeOffline(
      db,
      { ...site(catalogIds[0]!), resolution: { metres: 7 } },
      options(client()),
    );
    expect(raster).toMatchObject({ state: 'stored', mode: 'window', level: 1, resolution: '7m' });
    db.close();
  });

  it('after a crash mid-request, a service that honours the key replays its answer: one download', async () => {
    const db = mirror();
    const store = makeOfflineRasterStore(db.sqlite);
    const req = site(catalogIds[1]!);
    // What a killed run left: the row with its key, sent (the service made the download).
    const row = store.create({
      id: 'off_crashed',
      scene_kind: 'catalog',
      scene_ref: catalogIds[1]!,
      aoi_id: null,
      scene_id: catalogIds[1]!,
      area_json: JSON.stringify(req.area.geometry),
      area_label: req.area.label,
      resolution: 'native',
      idempotency_key: 'crash-key-1',
    });
    store.update(row.id, { request_sent: 1 });
    const before = serviceDownloads();
    await client().downloads.createForCatalog(
      { catalog_ids: [catalogIds[1]!] },
      { idempotencyKey: 'crash-key-1' },
    );
    const raster = await takeOffline(db, req, options(client()));
    expect(raster.id).toBe('off_crashed');
    expect(raster.state).toBe('stored');
    expect(serviceDownloads()).toBe(before + 1);
    db.close();
  });

  it('a service that ignores the key: in doubt, the request waits for the user (unconfirmed), then resend', async () => {
    const db = mirror();
    relay.ignoreKey = true;
    // The create reaches the service, its answer is lost.
    relay.lose = (r) => r.method === 'POST';
    const req = site(catalogIds[1]!);
    const c = createEoClient({ baseUrl: relay.url, apiKey: key, retry: { maxAttempts: 1 } });
    const before = serviceDownloads();
    const first = await takeOffline(db, req, options(c)).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(OfflineError);
    expect((first as OfflineError).raster?.state).toBe('requesting');
    expect(serviceDownloads()).toBe(before + 1);
    relay.lose = null;
    const second = await takeOffline(db, req, options(c)).catch((e: unknown) => e);
    expect(second).toBeInstanceOf(OfflineError);
    expect((second as OfflineError).raster?.state).toBe('unconfirmed');
    expect(serviceDownloads()).toBe(before + 1);
    // The user says: ask again.
    const stored = await takeOffline(db, req, { ...options(c), resend: true });
    expect(stored.state).toBe('stored');
    expect(serviceDownloads()).toBe(before + 2);
    db.close();
  });

  it('a download the service made, given by the user, is followed without a create', async () => {
    const db = mirror();
    const made = await client().downloads.createForCatalog({ catalog_ids: [catalogIds[0]!] });
    relay.requests.length = 0;
    const raster = await takeOffline(db, site(catalogIds[0]!), {
      ...options(client()),
      downloadId: made.id,
    });
    expect(raster).toMatchObject({ state: 'stored', downloadId: made.id });
    expect(creates()).toBe(0);
    db.close();
  });

  it("a failed download fails its raster with the service's reason; an unknown scene is a 404 naming it", async () => {
    const db = mirror();
    const e = await takeOffline(db, site('cat_nope'), options(client())).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(OfflineError);
    expect((e as OfflineError).message).toMatch(/cat_nope/);
    db.close();
  });

  it('a failed raster is taken up again by the same request: the same row and id, a new download asked once', async () => {
    const db = mirror();
    const req = site(catalogIds[0]!);
    // A download the service does not know: the raster fails with why.
    const failed = await takeOffline(db, req, {
      ...options(client()),
      downloadId: 'dl_gone',
    }).catch((x: unknown) => x);
    expect(failed).toBeInstanceOf(OfflineError);
    const row = (failed as OfflineError).raster!;
    expect(row).toMatchObject({ state: 'failed', message: expect.stringMatching(/dl_gone/) });
    const keyBefore = makeOfflineRasterStore(db.sqlite).get(row.id)!.idempotency_key;
    expect(creates()).toBe(0);
    // Resumed (the same request again): that row goes on, with a new download request.
    const progress: OfflineProgress[] = [];
    const raster = await takeOffline(db, req, options(client(), progress));
    expect(raster).toMatchObject({ id: row.id, state: 'stored', message: null });
    expect(progress[0]).toEqual({ phase: 'requesting', rasterId: row.id });
    expect(
      makeOfflineRasterStore(db.sqlite)
        .all()
        .map((r) => r.id),
    ).toEqual([row.id]);
    expect(makeOfflineRasterStore(db.sqlite).get(row.id)!.idempotency_key).not.toBe(keyBefore);
    expect(creates()).toBe(1);
    db.close();
    // Run alone (-t) it is the first to have the service render the scene's COG: ~30 s at load 19.
  }, 120_000);

  it("a file that is not a COG (the provider's zip): its size said first, taken whole, resumed where it stopped", async () => {
    const zip = Buffer.concat([Buffer.from('PK\x03\x04'), crypto.randomBytes(3 * 1024 * 1024)]);
    const files = await startFileServer(zip, 'application/zip');
    const provider = await startProviderStub(`${files.url}/exports/scene.zip?sig=abc`);
    try {
      const db = mirror();
      const c = createEoClient({
        baseUrl: provider.url,
        apiKey: 'provider-key',
        dialect: 'provider-v0',
      });
      const opts = { ...options(c), serviceUrl: provider.url, sleep: () => Promise.resolve() };
      // The first run loses the link after 1.5 MB of the file, then after 0.5 MB at every try:
      // it keeps the whole chunk it got, and stops after its tries.
      let cuts = 0;
      files.setFault((r) =>
        r.range && r.range.end - r.range.start > 100_000
          ? { cutAfter: (++cuts === 1 ? 1.5 : 0.5) * 1024 * 1024 }
          : 'pass',
      );
      const progress: OfflineProgress[] = [];
      const first = await takeOffline(db, site('cat-provider'), {
        ...opts,
        onProgress: (p) => progress.push(p),
      }).catch((e: unknown) => e);
      expect(first).toBeInstanceOf(OfflineError);
      expect((first as OfflineError).raster?.state).toBe('fetching');
      const whole = progress.findIndex((p) => p.phase === 'whole-file');
      expect(progress[whole]).toMatchObject({ reason: 'a zip archive', bytes: zip.length });
      expect(progress.findIndex((p) => p.phase === 'file')).toBeGreaterThan(whole);
      // The second run asks for the rest only, with If-Range, and nobody asks the provider twice.
      files.setFault(() => 'pass');
      files.requests.length = 0;
      const raster = await takeOffline(db, site('cat-provider'), opts);
      expect(raster).toMatchObject({ state: 'stored', mode: 'whole', bytes: zip.length });
      expect(raster.message).toMatch(/is a zip archive: stored whole/);
      expect(path.extname(raster.file!)).toBe('.zip');
      expect(fs.readFileSync(raster.file!).equals(zip)).toBe(true);
      const rest = files.requests.find((r) => r.range && r.range.start > 0)!;
      expect(rest.range!.start).toBe(1024 * 1024);
      expect(rest.headers['if-range']).toMatch(/^"/);
      for (const r of files.requests) expect(r.headers.authorization).toBeUndefined();
      expect(provider.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
      expect(JSON.parse(provider.requests.find((r) => r.method === 'POST')!.body)).toEqual({
        catalog_ids: ['cat-provider'],
        order_item_ids: [],
      });
      db.close();
    } finally {
      await provider.close();
      await files.close();
    }
  });
});
