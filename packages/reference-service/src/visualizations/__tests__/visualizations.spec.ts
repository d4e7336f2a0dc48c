import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MICRO_TS,
  SCENES,
  count,
  createAoi,
  getAoi,
  insertFixtureScenes,
  listAssets,
  paths,
  restart,
  step,
} from '../../aois/__tests__/fixtures';
import { createTestApp, type TestApp } from '../../testing/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  insertFixtureScenes(t);
});
afterAll(async () => t.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** A settled AOI over the covering, half-covering and disjoint scenes: assets success, success, failed. */
async function settledAoi(key?: string, project = 'prj-demo-crops') {
  const aoi = await createAoi(t, { project_id: project }, key);
  t.app.ctx.worker.drain();
  const [cover, half, away] = await (async () => {
    const res = await t.call({ method: 'GET', url: `/v0/aois/${aoi.aoi_id}/assets`, key });
    return res.json().assets as Json[];
  })();
  return { aoi, cover, half, away };
}

function visualize(aoiId: string, payload: object, opts: { key?: string; headers?: object } = {}) {
  return t.call({
    method: 'POST',
    url: `/v0/aois/${aoiId}/visualizations`,
    payload,
    key: opts.key,
    headers: opts.headers as Record<string, string>,
  });
}

const visStatus = (id: string) =>
  t.app.ctx.sqlite.prepare('SELECT status, progress FROM visualizations WHERE id = ?').get(id) as {
    status: string;
    progress: number;
  };

describe('POST /v0/aois/{aoi_id}/visualizations', () => {
  it('creates a visualization (201) from a preset: creating, with pending index assets', async () => {
    const { aoi, cover, half } = await settledAoi();
    const res = await visualize(aoi.aoi_id, {
      index_id: 'idx-ndvi-aurora',
      src_asset_ids: [cover.id, half.id],
    });
    expect(res.statusCode, res.body).toBe(201);
    const vis = res.json();
    expect(vis).toMatchObject({
      aoi_id: aoi.aoi_id,
      index_id: 'idx-ndvi-aurora',
      index_name: 'NDVI',
      expression: '(B08 - B04) / (B08 + B04)',
      expression_type: 'index',
      type: 'custom',
      rescale: [-1, 1],
      status: 'creating',
      progress: 0,
      tenant_id: 'org-demo',
      user_id: 'usr-demo-analyst',
      src_asset_ids: [cover.id, half.id],
    });
    expect(vis.id).toMatch(/^vis_/);
    expect(vis.created_at).toMatch(MICRO_TS);
    expect(vis.assets).toHaveLength(2);
    expect(
      vis.assets.map((a: Json) => [a.asset_type, a.status, a.date, a.visualization_id]),
    ).toEqual([
      ['index', 'pending', '2024-05-01', vis.id],
      ['index', 'pending', '2024-06-01', vis.id],
    ]);
    expect(vis.assets[0]).toMatchObject({ name: 'NDVI 2024-05-01', band_list: ['B08', 'B04'] });
    // The index assets appear in the AOI asset list at once, after its scene assets.
    const listed = await listAssets(t, aoi.aoi_id);
    expect(listed.map((a) => a.id)).toEqual([
      ...listed.slice(0, 3).map((a) => a.id),
      ...vis.assets.map((a: Json) => a.id),
    ]);
    t.app.ctx.worker.drain();
  });

  it('moves creating -> success one asset per step; the AOI is updating meanwhile', async () => {
    const { aoi, cover, half } = await settledAoi();
    expect((await getAoi(t, aoi.aoi_id)).status).toBe('partial_success');
    const vis = (
      await visualize(aoi.aoi_id, {
        index_id: 'idx-ndvi-aurora',
        src_asset_ids: [cover.id, half.id],
      })
    ).json();
    expect((await getAoi(t, aoi.aoi_id)).status).toBe('updating');
    const indexAssets = async () =>
      (await listAssets(t, aoi.aoi_id)).filter((a) => a.visualization_id === vis.id);

    step(t);
    expect(visStatus(vis.id)).toEqual({ status: 'creating', progress: 0 });
    expect((await indexAssets()).map((a) => a.status)).toEqual(['running', 'pending']);

    step(t);
    expect(visStatus(vis.id)).toEqual({ status: 'creating', progress: 50 });
    expect((await indexAssets()).map((a) => a.status)).toEqual(['success', 'running']);
    expect((await getAoi(t, aoi.aoi_id)).status).toBe('updating');

    step(t);
    expect(visStatus(vis.id)).toEqual({ status: 'success', progress: 100 });
    const [a, b] = await indexAssets();
    expect(a).toMatchObject({ status: 'success', progress: 100, geometry: cover.geometry });
    expect(a.area_in_sq_m).toBe(cover.area_in_sq_m);
    expect(b.centroid).toEqual(half.centroid);
    expect(a.path).toBe(
      `eo-store://assets/org-demo/aois/${aoi.aoi_id}/visualizations/${vis.id}/${a.id}.tif`,
    );
    // Back to the outcome of its scenes.
    expect(await getAoi(t, aoi.aoi_id)).toMatchObject({ status: 'partial_success', progress: 100 });
    expect(t.app.ctx.worker.pending()).toBe(0);
  });

  it('ends partial_success when a source asset failed, failed when all did', async () => {
    const { aoi, cover, away } = await settledAoi();
    const mixed = (
      await visualize(aoi.aoi_id, {
        index_id: 'idx-ndwi-aurora',
        src_asset_ids: [cover.id, away.id],
      })
    ).json();
    const none = (
      await visualize(aoi.aoi_id, { index_id: 'idx-truecolor-aurora', src_asset_ids: [away.id] })
    ).json();
    t.app.ctx.worker.drain();
    expect(visStatus(mixed.id)).toEqual({ status: 'partial_success', progress: 100 });
    expect(visStatus(none.id)).toEqual({ status: 'failed', progress: 100 });
    const failed = (await listAssets(t, aoi.aoi_id)).find((a) => a.visualization_id === none.id);
    expect(failed).toMatchObject({ status: 'failed', path: null, geometry: null });
    expect(failed.description).toMatch(/has no imagery \(failed\)/);
    expect(none.expression_type).toBe('composite');
    expect(none.rescale).toEqual([0, 255]);
    expect((await getAoi(t, aoi.aoi_id)).status).toBe('partial_success');
  });

  it('on an AOI still in progress, waits for its scenes, then produces', async () => {
    const aoi = await createAoi(t, { item_ids: [SCENES.cover.id, SCENES.later.id] });
    const scenes = await listAssets(t, aoi.aoi_id);
    const vis = (
      await visualize(aoi.aoi_id, {
        index_id: 'idx-ndvi-aurora',
        src_asset_ids: scenes.map((a) => a.id),
      })
    ).json();
    expect(vis.status).toBe('creating');
    // Only the AOI step is queued: the visualization waits for it.
    expect(t.app.ctx.worker.pending()).toBe(1);
    expect((await getAoi(t, aoi.aoi_id)).status).toBe('started');
    step(t);
    step(t);
    expect((await getAoi(t, aoi.aoi_id)).status).toBe('running');
    expect(visStatus(vis.id)).toEqual({ status: 'creating', progress: 0 });
    step(t); // the AOI settles and queues the visualization
    expect((await getAoi(t, aoi.aoi_id)).status).toBe('updating');
    expect(t.app.ctx.worker.pending()).toBe(1);
    t.app.ctx.worker.drain();
    expect(visStatus(vis.id)).toEqual({ status: 'success', progress: 100 });
    expect(await getAoi(t, aoi.aoi_id)).toMatchObject({ status: 'success', progress: 100 });
  });

  it('keeps the AOI updating until its last creating visualization settles', async () => {
    const { aoi, cover, half } = await settledAoi();
    const one = (
      await visualize(aoi.aoi_id, { index_id: 'idx-ndvi-aurora', src_asset_ids: [cover.id] })
    ).json();
    step(t);
    step(t);
    expect(visStatus(one.id).status).toBe('success');
    expect((await getAoi(t, aoi.aoi_id)).status).toBe('partial_success');
    await visualize(aoi.aoi_id, { index_id: 'idx-ndvi-aurora', src_asset_ids: [cover.id] });
    await visualize(aoi.aoi_id, { index_id: 'idx-nbr-aurora', src_asset_ids: [half.id] });
    expect((await getAoi(t, aoi.aoi_id)).status).toBe('updating');
    step(t);
    step(t);
    step(t); // the first of the two settles
    expect((await getAoi(t, aoi.aoi_id)).status).toBe('updating');
    t.app.ctx.worker.drain();
    expect((await getAoi(t, aoi.aoi_id)).status).toBe('partial_success');
  });

  it("accepts the organisation's own custom index for the AOI's satellite", async () => {
    const { aoi, cover } = await settledAoi();
    const idx = await t.call({
      method: 'POST',
      url: '/v0/indices',
      payload: {
        name: 'Red edge',
        description: 'NDVI with B05',
        rescale: [-1, 1],
        expression: '(B08 - B05) / (B08 + B05)',
        colormap: 'RdYlGn',
        satellite_id: 'sat-aurora-1',
        expression_type: 'index',
        type: 'custom',
      },
    });
    expect(idx.statusCode).toBe(201);
    const res = await visualize(aoi.aoi_id, { index_id: idx.json().id, src_asset_ids: [cover.id] });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ index_name: 'Red edge', index_id: idx.json().id });
    expect(res.json().assets[0].band_list).toEqual(['B08', 'B05']);
    // Another organisation's AOI cannot use it: to them the index is unknown.
    const theirs = await settledAoi(t.otherKey, 'prj-other');
    const other = await visualize(
      theirs.aoi.aoi_id,
      { index_id: idx.json().id, src_asset_ids: [theirs.cover.id] },
      { key: t.otherKey },
    );
    expect(other.statusCode).toBe(400);
    expect(paths(other)).toEqual(['index_id']);
    t.app.ctx.worker.drain();
  });

  it('404s an unknown AOI and an AOI of another organisation', async () => {
    const { aoi, cover } = await settledAoi();
    const body = { index_id: 'idx-ndvi-aurora', src_asset_ids: [cover.id] };
    expect((await visualize('aoi_nope', body)).statusCode).toBe(404);
    const other = await visualize(aoi.aoi_id, body, { key: t.otherKey });
    expect(other.statusCode).toBe(404);
    expect(other.json().error.code).toBe('not_found');
  });

  it('rejects an unknown index and an index of another satellite (400 index_id)', async () => {
    const { aoi, cover } = await settledAoi();
    for (const index_id of ['idx-nope', 'idx-ndvi-kestrel']) {
      const res = await visualize(aoi.aoi_id, { index_id, src_asset_ids: [cover.id] });
      expect(res.statusCode, index_id).toBe(400);
      expect(paths(res)).toEqual(['index_id']);
    }
    const res = await visualize(aoi.aoi_id, {
      index_id: 'idx-ndvi-kestrel',
      src_asset_ids: [cover.id],
    });
    expect(res.json().error.details[0].message).toMatch(
      /sat-kestrel-1; this AOI is on sat-aurora-1/,
    );
  });

  it('rejects source assets that are not scene assets of this AOI (400 src_asset_ids.K)', async () => {
    const first = await settledAoi();
    const second = await settledAoi();
    const vis = (
      await visualize(first.aoi.aoi_id, {
        index_id: 'idx-ndvi-aurora',
        src_asset_ids: [first.cover.id],
      })
    ).json();
    t.app.ctx.worker.drain();
    const res = await visualize(first.aoi.aoi_id, {
      index_id: 'idx-ndvi-aurora',
      src_asset_ids: [
        first.cover.id,
        second.cover.id, // another AOI's
        'ast_nope',
        vis.assets[0].id, // an index asset
        first.cover.id, // repeated
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toEqual([
      'src_asset_ids.1',
      'src_asset_ids.2',
      'src_asset_ids.3',
      'src_asset_ids.4',
    ]);
    expect(res.json().error.details[2].message).toMatch(/index asset/);
  });

  it('rejects malformed bodies (schema) with field paths', async () => {
    const { aoi, cover } = await settledAoi();
    for (const [payload, path] of [
      [{ src_asset_ids: [cover.id] }, 'index_id'],
      [{ index_id: 'idx-ndvi-aurora' }, 'src_asset_ids'],
      [{ index_id: 'idx-ndvi-aurora', src_asset_ids: [] }, 'src_asset_ids'],
      [{ index_id: '', src_asset_ids: [cover.id] }, 'index_id'],
      [{ index_id: 'idx-ndvi-aurora', src_asset_ids: [cover.id], x: 1 }, ''],
    ] as const) {
      const res = await visualize(aoi.aoi_id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(paths(res)).toContain(path);
    }
  });

  it('requires an API key', async () => {
    const res = await visualize(
      'aoi_any',
      { index_id: 'x', src_asset_ids: ['y'] },
      { key: null as never },
    );
    expect(res.statusCode).toBe(401);
  });

  it('replays a create with the same Idempotency-Key: one visualization, one set of assets', async () => {
    const { aoi, cover } = await settledAoi();
    const body = { index_id: 'idx-ndvi-aurora', src_asset_ids: [cover.id] };
    const headers = { 'idempotency-key': 'vis-replay-1' };
    const first = await visualize(aoi.aoi_id, body, { headers });
    const again = await visualize(aoi.aoi_id, body, { headers });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(count(t, 'SELECT count(*) AS n FROM visualizations WHERE aoi_id = ?', aoi.aoi_id)).toBe(
      1,
    );
    expect(t.app.ctx.worker.pending()).toBe(1);
    // Same key on another AOI is a different request.
    const conflict = await visualize((await settledAoi()).aoi.aoi_id, body, { headers });
    expect(conflict.statusCode).toBe(409);
    t.app.ctx.worker.drain();
  });
});

describe('GET /v0/aois/{aoi_id}/visualizations/{id} (extension)', () => {
  it('re-reads a visualization as it progresses, with its assets; another organisation gets 404', async () => {
    const { aoi, cover, half } = await settledAoi();
    const created = (
      await visualize(aoi.aoi_id, {
        index_id: 'idx-ndvi-aurora',
        src_asset_ids: [cover.id, half.id],
      })
    ).json();
    const read = (key?: string, aoiId = aoi.aoi_id) =>
      t.call({ method: 'GET', url: `/v0/aois/${aoiId}/visualizations/${created.id}`, key });

    const first = await read();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual(created);
    step(t);
    step(t);
    const later = (await read()).json();
    expect(later).toMatchObject({ id: created.id, status: 'creating', progress: 50 });
    expect(later.assets.map((a: Json) => a.status)).toEqual(['success', 'running']);

    expect((await read(t.otherKey)).statusCode).toBe(404);
    const other = await createAoi(t, {});
    expect((await read(undefined, other.aoi_id)).statusCode).toBe(404);
    const unknown = await t.call({
      method: 'GET',
      url: `/v0/aois/${aoi.aoi_id}/visualizations/vis_unknown`,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('not_found');
  });
});

describe('visualization processing across a restart', () => {
  it('resumes where it stopped: every index asset produced exactly once', async () => {
    const { aoi, cover, half, away } = await settledAoi();
    const vis = (
      await visualize(aoi.aoi_id, {
        index_id: 'idx-ndvi-aurora',
        src_asset_ids: [cover.id, half.id, away.id],
      })
    ).json();
    step(t);
    step(t); // first index asset done
    const before = (await listAssets(t, aoi.aoi_id)).filter((a) => a.visualization_id === vis.id);
    expect(before.map((a) => a.status)).toEqual(['success', 'running', 'pending']);

    t = await restart(t);
    t.app.ctx.worker.drain();

    const after = (await listAssets(t, aoi.aoi_id)).filter((a) => a.visualization_id === vis.id);
    expect(after.map((a) => a.id)).toEqual(before.map((a) => a.id));
    expect(after.map((a) => a.status)).toEqual(['success', 'success', 'failed']);
    expect(after[0].updated_at).toBe(before[0].updated_at);
    expect(count(t, 'SELECT count(*) AS n FROM assets WHERE visualization_id = ?', vis.id)).toBe(3);
    expect(visStatus(vis.id)).toEqual({ status: 'partial_success', progress: 100 });
    expect((await getAoi(t, aoi.aoi_id)).status).toBe('partial_success');
    expect(t.app.ctx.worker.pending()).toBe(0);
  });
});
