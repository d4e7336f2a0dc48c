/**
 * The provider's download operations as our extensions: creates (catalog records, order items,
 * AOI assets), the worker's states (waiting for the scene COGs to render), the reads,
 * per-organisation isolation, idempotent creates, and what `signed_url` points at: the scene's
 * COG, or the manifest of a download of several scenes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { box, createAoi } from '../../aois/__tests__/fixtures';
import { archiveItem } from '../../orders/__tests__/fixtures';
import { insertSquareScene } from '../../testing/scenes';
import {
  count,
  createOrder,
  createOrdersApp,
  itemsOf,
  step,
  type Json,
} from '../../orders/__tests__/helpers';
import { OTHER, type TestApp } from '../../testing/harness';

let t: TestApp;
let item: Json;
let catalogIds: string[];
let otherCatalogId: string;

const download = (payload: object, opts: { key?: string; headers?: Record<string, string> } = {}) =>
  t.call({ method: 'POST', url: '/v0/catalogs/download', payload, ...opts });
const read = (id: string, key?: string) =>
  t.call({ method: 'GET', url: `/v0/catalogs/download/${id}`, ...(key ? { key } : {}) });
const status = (id: string) =>
  (t.app.ctx.sqlite.prepare('SELECT status FROM downloads WHERE id = ?').get(id) as Json).status;

/** Scenes of 2 km: their COGs render in seconds. */
const SCENE_A = {
  id: 'DL_SCENE_A',
  lon: 11.35,
  lat: 44.5,
  km: 2,
  datetime: '2024-06-20T10:30:00Z',
};
const SCENE_B = {
  id: 'DL_SCENE_B',
  lon: 11.37,
  lat: 44.51,
  km: 2,
  datetime: '2024-06-21T10:30:00Z',
};

/** Runs the worker and waits for the scene renders until no download is unfinished. */
async function settle(): Promise<void> {
  const unfinished = t.app.ctx.sqlite.prepare(
    "SELECT count(*) FROM downloads WHERE status IN ('created', 'in_progress')",
  );
  for (let round = 0; round < 20; round++) {
    // Bounded: a download waiting for a render is rescheduled, and drain ignores due times.
    t.app.ctx.worker.drain(300);
    await t.app.ctx.imagery.cogs.settled();
    if (unfinished.pluck().get() === 0) return;
  }
  throw new Error('downloads still unfinished after 20 rounds of steps and renders');
}

beforeAll(async () => {
  t = await createOrdersApp();
  insertSquareScene(t.app.ctx.sqlite, SCENE_A);
  insertSquareScene(t.app.ctx.sqlite, SCENE_B);
  const order = (
    await createOrder(t, [archiveItem({ item_ids: [SCENE_A.id, SCENE_B.id] })])
  ).json();
  const theirs = (
    await createOrder(t, [archiveItem({ project_id: OTHER.projectId, item_ids: [SCENE_A.id] })], {
      key: t.otherKey,
    })
  ).json();
  t.app.ctx.worker.drain();
  [item] = await itemsOf(t, order.id);
  catalogIds = item.tasks.map((k: Json) => k.catalog_id);
  otherCatalogId = (await itemsOf(t, theirs.id, t.otherKey))[0].tasks[0].catalog_id;
});
afterAll(async () => t?.close());

// The scene COGs render on worker threads: bounds for a busy machine.
describe('POST /v0/catalogs/download', { timeout: 120_000 }, () => {
  it('creates a download (201, created), then the worker moves it in_progress -> success', async () => {
    const res = await download({ catalog_ids: [catalogIds[0]] });
    expect(res.statusCode, res.body).toBe(201);
    const d = res.json();
    expect(d).toMatchObject({
      status: 'created',
      catalog_ids: [catalogIds[0]],
      order_item_ids: [],
      reason: null,
    });
    expect(d.id).toMatch(/^dl_/);
    expect(d).not.toHaveProperty('signed_url');
    expect(step(t)).toBe(1);
    expect(status(d.id)).toBe('in_progress');
    expect((await read(d.id)).json()).not.toHaveProperty('signed_url');
    // The scene's COG is rendering: the download waits in_progress.
    t.app.ctx.worker.drain(50);
    expect(status(d.id)).toBe('in_progress');
    await settle();
    const done = (await read(d.id)).json();
    expect(done.status).toBe('success');
    expect(done.signed_url).toMatch(
      /^\/rasters\/catalog\/[^/]+\/scene\.tif\?expires=\d+&signature=/,
    );
    expect(done.files).toEqual([
      {
        scene_id: catalogIds[0],
        signed_url: done.signed_url,
        media_type: 'image/tiff; application=geotiff; profile=cloud-optimized',
      },
    ]);
    // The file: a TIFF, by range, without the key.
    const head = await t.call({
      method: 'GET',
      url: done.signed_url,
      key: null,
      headers: { range: 'bytes=0-3' },
    });
    expect(head.statusCode).toBe(206);
    expect(head.rawPayload.subarray(0, 2).toString('latin1')).toBe('II');
  });

  it('a download of several records succeeds with one signed_url: its manifest, naming each scene', async () => {
    const d = (await download({ catalog_ids: catalogIds })).json();
    await settle();
    const done = (await read(d.id)).json();
    expect(done.signed_url).toMatch(
      /^\/downloads\/dl_[^/]+\/manifest\.json\?expires=\d+&signature=/,
    );
    expect(done.files.map((f: Json) => f.scene_id)).toEqual(catalogIds);
    const manifest = await t.call({ method: 'GET', url: done.signed_url, key: null });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toMatch(/^application\/json/);
    expect(manifest.json()).toEqual({
      manifest_version: 1,
      download_id: d.id,
      scenes: catalogIds.map((id, k) => ({ scene_id: id, source: 'catalog', file: done.files[k] })),
    });
    // One range, as a resumed whole-file download asks.
    const part = await t.call({
      method: 'GET',
      url: done.signed_url,
      key: null,
      headers: { range: 'bytes=5-', 'if-range': String(manifest.headers.etag) },
    });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe(manifest.body.slice(5));
    // The signature is the permission: tampered or missing is 403, the API key no substitute.
    const other = done.signed_url.replace(d.id, 'dl_other');
    expect((await t.call({ method: 'GET', url: other, key: null })).statusCode).toBe(403);
    const bare = done.signed_url.split('?')[0];
    expect((await t.call({ method: 'GET', url: bare })).statusCode).toBe(403);
  });

  it('by order item: the records of its completed tasks, waiting while the item is fulfilled', async () => {
    const order = (await createOrder(t, [archiveItem({ item_ids: [SCENE_B.id] })])).json();
    const [fresh] = await itemsOf(t, order.id);
    const d = (await download({ order_item_ids: [fresh.id] })).json();
    expect(d).toMatchObject({ status: 'created', catalog_ids: [], order_item_ids: [fresh.id] });
    // Step by step: the download waits in_progress while the item is unpaid, then fulfilled.
    const seen = new Set<string>();
    for (let n = 0; n < 200 && step(t) > 0; n++) {
      const tasks = (await itemsOf(t, order.id))[0].tasks as Json[];
      const fulfilled = tasks.length > 0 && tasks.every((k) => k.status === 'COMPLETED');
      seen.add(`${status(d.id)} ${fulfilled ? 'fulfilled' : 'unfulfilled'}`);
      if (fulfilled && status(d.id) !== 'created') break;
    }
    expect([...seen]).toContain('in_progress unfulfilled');
    expect([...seen]).not.toContain('failed unfulfilled');
    await settle();
    const done = (await read(d.id)).json();
    expect(done.status, done.reason).toBe('success');
    const [fulfilled] = await itemsOf(t, order.id);
    expect(done.files.map((f: Json) => f.scene_id)).toEqual(
      fulfilled.tasks.map((k: Json) => k.catalog_id),
    );
  });

  it('404s unknown ids and ids of another organisation, naming each path; creates nothing', async () => {
    const before = count(t, 'downloads');
    const res = await download({ catalog_ids: [catalogIds[0], 'cat_nope', otherCatalogId] });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.details.map((x: Json) => x.path)).toEqual([
      'catalog_ids.1',
      'catalog_ids.2',
    ]);
    expect((await download({ order_item_ids: ['oi_nope'] })).statusCode).toBe(404);
    expect(count(t, 'downloads')).toBe(before);
    expect(
      (await download({ catalog_ids: [otherCatalogId] }, { key: t.otherKey })).statusCode,
    ).toBe(201);
  });

  it('400s both lists, neither, a repeated id or too many ids', async () => {
    for (const body of [
      { catalog_ids: [catalogIds[0]], order_item_ids: [item.id] },
      {},
      { catalog_ids: [] },
      { catalog_ids: [catalogIds[0], catalogIds[0]] },
      { catalog_ids: Array.from({ length: 101 }, (_, k) => `c${k}`) },
      { catalog_ids: [catalogIds[0]], extra: 1 },
    ]) {
      const res = await download(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
  });

  it('another organisation reads none of ours (404), and an AOI download is not a catalog one', async () => {
    const d = (await download({ catalog_ids: [catalogIds[0]] })).json();
    expect((await read(d.id, t.otherKey)).statusCode).toBe(404);
    expect((await read('dl_nope')).statusCode).toBe(404);
  });

  it('is idempotent: the same key and body replay the first answer; another body is 409', async () => {
    const headers = { 'idempotency-key': 'dl-key-1' };
    const before = count(t, 'downloads');
    const first = await download({ catalog_ids: [catalogIds[1]] }, { headers });
    const again = await download({ catalog_ids: [catalogIds[1]] }, { headers });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(count(t, 'downloads')).toBe(before + 1);
    const conflict = await download({ catalog_ids: [catalogIds[0]] }, { headers });
    expect(conflict.statusCode).toBe(409);
  });
});

describe('POST /v0/aois/{aoi_id}/downloads', { timeout: 120_000 }, () => {
  let aoi: Json;
  let assets: Json[];
  beforeAll(async () => {
    aoi = await createAoi(t, {
      item_ids: [SCENE_A.id, SCENE_B.id],
      geometry: box(11.355, 44.502, 11.365, 44.508),
    });
    t.app.ctx.worker.drain();
    assets = (await t.call({ method: 'GET', url: `/v0/aois/${aoi.aoi_id}/assets` })).json().assets;
  });
  const create = (aoiId: string, payload: object, key?: string) =>
    t.call({
      method: 'POST',
      url: `/v0/aois/${aoiId}/downloads`,
      payload,
      ...(key ? { key } : {}),
    });
  const readAoi = (aoiId: string, id: string, key?: string) =>
    t.call({ method: 'GET', url: `/v0/aois/${aoiId}/downloads/${id}`, ...(key ? { key } : {}) });

  it('downloads scene assets as the archive scenes they were cut from', async () => {
    const res = await create(aoi.aoi_id, { asset_ids: [assets[0].id] });
    expect(res.statusCode, res.body).toBe(201);
    const d = res.json();
    expect(d).toMatchObject({ status: 'created', aoi_id: aoi.aoi_id, asset_ids: [assets[0].id] });
    expect(d.download_id).toMatch(/^dl_/);
    expect(d).not.toHaveProperty('id');
    await settle();
    const done = (await readAoi(aoi.aoi_id, d.download_id)).json();
    expect(done.status).toBe('success');
    expect(done.signed_url).toMatch(/^\/rasters\/archive\/DL_SCENE_A\/scene\.tif\?/);
    expect(done.files.map((f: Json) => f.scene_id)).toEqual([SCENE_A.id]);
  });

  it('404s another AOI, another organisation and an asset of another AOI; reads only under its AOI', async () => {
    const other = await createAoi(t, {
      item_ids: [SCENE_A.id],
      geometry: box(11.345, 44.497, 11.355, 44.503),
    });
    t.app.ctx.worker.drain();
    expect((await create(other.aoi_id, { asset_ids: [assets[0].id] })).statusCode).toBe(404);
    expect((await create(aoi.aoi_id, { asset_ids: [assets[0].id] }, t.otherKey)).statusCode).toBe(
      404,
    );
    const d = (await create(aoi.aoi_id, { asset_ids: [assets[1].id] })).json();
    expect((await readAoi(other.aoi_id, d.download_id)).statusCode).toBe(404);
    expect((await readAoi(aoi.aoi_id, d.download_id, t.otherKey)).statusCode).toBe(404);
    expect((await read(d.download_id)).statusCode).toBe(404);
    expect((await create(aoi.aoi_id, { asset_ids: [] })).statusCode).toBe(400);
  });
});

describe('OpenAPI', () => {
  it('documents the four operations as extensions, creates with Idempotency-Key and a body', async () => {
    const doc = (await t.call({ method: 'GET', url: '/v0/openapi.json' })).json();
    const create = doc.paths['/v0/catalogs/download'].post;
    expect(create.tags).toEqual(['extension (not in the spec)']);
    expect(create.parameters.map((p: Json) => p.name)).toContain('Idempotency-Key');
    expect(create.requestBody.content['application/json'].schema.properties).toHaveProperty(
      'catalog_ids',
    );
    expect(create.responses).toHaveProperty('201');
    expect(doc.paths['/v0/catalogs/download/{download_id}'].get.operationId).toBe(
      'getCatalogDownload',
    );
    expect(doc.paths['/v0/aois/{aoi_id}/downloads'].post.operationId).toBe('createAoiDownload');
    expect(doc.paths['/v0/aois/{aoi_id}/downloads/{download_id}'].get.operationId).toBe(
      'getAoiDownload',
    );
  });
});
