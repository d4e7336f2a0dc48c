/**
 * The provider's download operations as our extensions: creates (catalog records, order items,
 * AOI assets), the worker's states, the reads, per-organisation isolation, idempotent creates,
 * and the signed manifest behind `signed_url`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  insertFixtureScenes,
  createAoi,
  SCENES as AOI_SCENES,
} from '../../aois/__tests__/fixtures';
import { archiveItem, SCENES } from '../../orders/__tests__/fixtures';
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

beforeAll(async () => {
  t = await createOrdersApp();
  insertFixtureScenes(t);
  const order = (
    await createOrder(t, [archiveItem({ item_ids: [SCENES.wide.id, SCENES.west.id] })])
  ).json();
  const theirs = (
    await createOrder(t, [archiveItem({ project_id: OTHER.projectId })], { key: t.otherKey })
  ).json();
  t.app.ctx.worker.drain();
  [item] = await itemsOf(t, order.id);
  catalogIds = item.tasks.map((k: Json) => k.catalog_id);
  otherCatalogId = (await itemsOf(t, theirs.id, t.otherKey))[0].tasks[0].catalog_id;
});
afterAll(async () => t?.close());

describe('POST /v0/catalogs/download', () => {
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
    t.app.ctx.worker.drain();
    const done = (await read(d.id)).json();
    expect(done.status).toBe('success');
    expect(done.signed_url).toMatch(
      /^\/downloads\/dl_[^/]+\/manifest\.json\?expires=\d+&signature=/,
    );
  });

  it('a download of several records succeeds with one signed_url: its manifest, naming each scene', async () => {
    const d = (await download({ catalog_ids: catalogIds })).json();
    t.app.ctx.worker.drain();
    const done = (await read(d.id)).json();
    const manifest = await t.call({ method: 'GET', url: done.signed_url, key: null });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toMatch(/^application\/json/);
    expect(manifest.json()).toMatchObject({
      manifest_version: 1,
      download_id: d.id,
      scenes: catalogIds.map((id) => ({ scene_id: id, source: 'catalog' })),
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
    const order = (await createOrder(t, [archiveItem({ item_ids: [SCENES.west.id] })])).json();
    const [fresh] = await itemsOf(t, order.id);
    const d = (await download({ order_item_ids: [fresh.id] })).json();
    expect(d).toMatchObject({ status: 'created', catalog_ids: [], order_item_ids: [fresh.id] });
    // Step by step: the download waits in_progress while the item is unpaid, then fulfilled.
    const seen = new Set<string>();
    while (step(t) > 0) {
      const tasks = (await itemsOf(t, order.id))[0].tasks as Json[];
      const fulfilled = tasks.length > 0 && tasks.every((k) => k.status === 'COMPLETED');
      seen.add(`${status(d.id)} ${fulfilled ? 'fulfilled' : 'unfulfilled'}`);
    }
    expect([...seen]).toContain('in_progress unfulfilled');
    expect([...seen]).not.toContain('failed unfulfilled');
    const done = (await read(d.id)).json();
    expect(done.status, done.reason).toBe('success');
    const manifest = (await t.call({ method: 'GET', url: done.signed_url, key: null })).json();
    const [fulfilled] = await itemsOf(t, order.id);
    expect(manifest.scenes.map((s: Json) => s.scene_id)).toEqual(
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

describe('POST /v0/aois/{aoi_id}/downloads', () => {
  let aoi: Json;
  let assets: Json[];
  beforeAll(async () => {
    aoi = await createAoi(t, { item_ids: [AOI_SCENES.cover.id, AOI_SCENES.half.id] });
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
    t.app.ctx.worker.drain();
    const done = (await readAoi(aoi.aoi_id, d.download_id)).json();
    expect(done.status).toBe('success');
    const manifest = (await t.call({ method: 'GET', url: done.signed_url, key: null })).json();
    expect(manifest.scenes).toEqual([
      { scene_id: AOI_SCENES.cover.id, source: 'archive', file: null },
    ]);
  });

  it('404s another AOI, another organisation and an asset of another AOI; reads only under its AOI', async () => {
    const other = await createAoi(t, { item_ids: [AOI_SCENES.cover.id] });
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
