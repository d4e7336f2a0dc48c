/**
 * Taking a site offline against the real reference service (its worker running), through a
 * relay that records where every request went: the download asked for exactly once (also after
 * a crash mid-request, against a service that honours the key and one that does not), followed
 * to success, its file fetched without the API key, and stored with its size and hash. Until the
 * service serves scene COGs, its signed_url is the download's manifest: the whole-file fallback.
 */
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
import { startOfflineService, type OfflineService } from './service';

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
  expect(catalogIds.length).toBeGreaterThanOrEqual(4);
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
  area: areaAround(11.3, 44.5, 1000),
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
  it('asks once, follows to success, fetches the file without the key and stores it whole when it is not a COG', async () => {
    const db = mirror();
    const progress: OfflineProgress[] = [];
    const raster = await takeOffline(db, site(catalogIds[0]!), options(client(), progress));
    expect(raster).toMatchObject({
      state: 'stored',
      mode: 'whole',
      scene: { kind: 'catalog', ref: catalogIds[0], sceneId: catalogIds[0] },
    });
    expect(raster.message).toMatch(/not a Cloud-Optimized GeoTIFF \(application\/json/);
    expect(creates()).toBe(1);
    // The file came from the asset origin, and no request there carried the key.
    expect(assets.requests.length).toBeGreaterThan(0);
    for (const r of assets.requests) expect(r.headers.authorization).toBeUndefined();
    // Stored owner-only, with the size and hash of its row, and it is the service's manifest.
    const file = raster.file!;
    expect(path.dirname(file)).toBe(rastersDir(db.file));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(fs.statSync(file).size).toBe(raster.bytes);
    const row = makeOfflineRasterStore(db.sqlite).get(raster.id)!;
    expect(fileSha256(file)).toBe(row.sha256);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({
      download_id: raster.downloadId,
      scenes: [{ scene_id: catalogIds[0] }],
    });
    // The whole file's size is said before a byte of it is fetched.
    const phases = progress.map((p) => p.phase);
    const whole = phases.indexOf('whole-file');
    expect(whole).toBeGreaterThan(phases.indexOf('opening'));
    expect(phases.indexOf('file')).toBeGreaterThan(whole);
    expect(progress[whole]).toMatchObject({ bytes: raster.bytes });
    expect(phases[phases.length - 1]).toBe('stored');

    // The same request again: answered from the mirror, nothing asked.
    relay.requests.length = 0;
    const again = await takeOffline(db, site(catalogIds[0]!), options(client()));
    expect(again.id).toBe(raster.id);
    expect(relay.requests).toEqual([]);
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
    const req = site(catalogIds[2]!);
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
    const made = await client().downloads.createForCatalog({ catalog_ids: [catalogIds[3]!] });
    relay.requests.length = 0;
    const raster = await takeOffline(db, site(catalogIds[3]!), {
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
});
