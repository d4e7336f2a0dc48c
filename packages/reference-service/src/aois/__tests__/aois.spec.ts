import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/harness';
import {
  AOI_BOX,
  MICRO_TS,
  SCENES,
  aoiBody,
  box,
  boxAreaSqM,
  createAoi,
  getAoi,
  insertFixtureScenes,
  listAssets,
  paths,
  step,
} from './fixtures';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  insertFixtureScenes(t);
});
afterAll(async () => t.close());

const AURORA_BANDS = ['B01', 'B02', 'B03', 'B04', 'B05', 'B08', 'B11', 'B12'];

describe('POST /v0/aois', () => {
  it('creates an AOI (201) with geodesic area, centroid, bands and images, status started', async () => {
    const aoi = await createAoi(t);
    expect(aoi).toMatchObject({
      name: 'North field',
      description: 'Maize, irrigated',
      satellite_id: 'sat-aurora-1',
      project_id: 'prj-demo-crops',
      provider: 'aurora-archive',
      status: 'started',
      progress: 0,
      is_favourite: false,
      user_id: 'usr-demo-analyst',
      eo_bands: AURORA_BANDS,
      geometry: AOI_BOX,
      images: { item_ids: [SCENES.cover.id, SCENES.half.id, SCENES.away.id], count: 3 },
    });
    expect(aoi.aoi_id).toMatch(/^aoi_/);
    const expected = boxAreaSqM(10, 45, 10.1, 45.1);
    expect(expected).toBeGreaterThan(87e6);
    expect(Math.abs(aoi.area_in_sq_m - expected) / expected).toBeLessThan(0.01);
    expect(aoi.centroid[0]).toBeCloseTo(10.05, 6);
    expect(aoi.centroid[1]).toBeCloseTo(45.05, 6);
    expect(aoi.created_at).toMatch(MICRO_TS);
    expect(aoi.updated_at).toBe(aoi.created_at);
    t.app.ctx.worker.drain();
  });

  it('lists one pending scene asset per item at once, dated from the scene, with the satellite bands', async () => {
    const aoi = await createAoi(t);
    const assets = await listAssets(t, aoi.aoi_id);
    expect(assets.map((a) => [a.name, a.date, a.status, a.progress, a.asset_type])).toEqual([
      [SCENES.cover.id, '2024-05-01', 'pending', 0, 'scene'],
      [SCENES.half.id, '2024-06-01', 'pending', 0, 'scene'],
      [SCENES.away.id, '2024-07-01', 'pending', 0, 'scene'],
    ]);
    for (const a of assets) {
      expect(a).toMatchObject({
        aoi_id: aoi.aoi_id,
        visualization_id: null,
        band_list: AURORA_BANDS,
        geometry: null,
        path: null,
      });
      expect(a.created_at).toMatch(MICRO_TS);
    }
    t.app.ctx.worker.drain();
  });

  it('moves started -> running -> partial_success, one asset per step, with progress', async () => {
    const aoi = await createAoi(t);
    const id = aoi.aoi_id;
    const statuses = async () => (await listAssets(t, id)).map((a) => a.status);

    step(t);
    expect(await getAoi(t, id)).toMatchObject({ status: 'running', progress: 0 });
    expect(await statuses()).toEqual(['running', 'pending', 'pending']);
    expect((await listAssets(t, id))[0].progress).toBe(50);

    step(t);
    expect(await getAoi(t, id)).toMatchObject({ status: 'running', progress: 33 });
    expect(await statuses()).toEqual(['success', 'running', 'pending']);

    step(t);
    expect(await getAoi(t, id)).toMatchObject({ status: 'running', progress: 66 });
    expect(await statuses()).toEqual(['success', 'success', 'running']);

    step(t);
    const done = await getAoi(t, id);
    expect(done).toMatchObject({ status: 'partial_success', progress: 100 });
    expect(done.updated_at > aoi.updated_at).toBe(true);
    expect(await statuses()).toEqual(['success', 'success', 'failed']);
    expect(t.app.ctx.worker.pending()).toBe(0);
  });

  it('cuts each scene footprint to the AOI; a scene missing the AOI yields a failed asset', async () => {
    const aoi = await createAoi(t);
    t.app.ctx.worker.drain();
    const [cover, half, away] = await listAssets(t, aoi.aoi_id);
    const whole = boxAreaSqM(10, 45, 10.1, 45.1);
    // Covering scene: the whole AOI.
    expect(Math.abs(cover.area_in_sq_m - whole) / whole).toBeLessThan(1e-9);
    expect(cover.centroid[0]).toBeCloseTo(10.05, 9);
    expect(cover.progress).toBe(100);
    expect(cover.path).toBe(`eo-store://assets/org-demo/aois/${aoi.aoi_id}/scenes/${cover.id}.tif`);
    // Half-covering scene: the eastern half, 10.05..10.1.
    const eastern = boxAreaSqM(10.05, 45, 10.1, 45.1);
    expect(Math.abs(half.area_in_sq_m - eastern) / eastern).toBeLessThan(1e-9);
    expect(half.centroid[0]).toBeCloseTo(10.075, 9);
    expect(half.centroid[1]).toBeCloseTo(45.05, 9);
    const lons = half.geometry.coordinates[0].map((p: number[]) => p[0]);
    expect(Math.min(...lons)).toBeCloseTo(10.05, 12);
    expect(Math.max(...lons)).toBeCloseTo(10.1, 12);
    // Disjoint scene: failed, nothing produced, the reason in the description.
    expect(away).toMatchObject({
      status: 'failed',
      progress: 100,
      geometry: null,
      path: null,
      area_in_sq_m: null,
      centroid: null,
    });
    expect(away.description).toMatch(/does not intersect the AOI/);
  });

  it('ends success when every scene intersects, failed when none does', async () => {
    const good = await createAoi(t, { item_ids: [SCENES.cover.id, SCENES.later.id] });
    const bad = await createAoi(t, { item_ids: [SCENES.away.id] });
    t.app.ctx.worker.drain();
    expect(await getAoi(t, good.aoi_id)).toMatchObject({ status: 'success', progress: 100 });
    expect(await getAoi(t, bad.aoi_id)).toMatchObject({ status: 'failed', progress: 100 });
  });

  it('accepts a MultiPolygon and uses the other satellite bands', async () => {
    const multi = {
      type: 'MultiPolygon',
      coordinates: [
        box(10, 45, 10.05, 45.05).coordinates,
        box(10.1, 45.1, 10.12, 45.12).coordinates,
      ],
    };
    const aoi = await createAoi(t, {
      satellite_id: 'sat-kestrel-1',
      item_ids: [SCENES.kestrel.id],
      geometry: multi,
    });
    expect(aoi.eo_bands).toEqual(['PAN', 'BLUE', 'GREEN', 'RED', 'NIR']);
    const expected = boxAreaSqM(10, 45, 10.05, 45.05) + boxAreaSqM(10.1, 45.1, 10.12, 45.12);
    expect(Math.abs(aoi.area_in_sq_m - expected) / expected).toBeLessThan(0.01);
    t.app.ctx.worker.drain();
    // The kestrel footprint (9.95..10.15) covers the first part and the second up to 10.12.
    const [asset] = await listAssets(t, aoi.aoi_id);
    expect(asset.status).toBe('success');
    expect(asset.geometry.type).toBe('MultiPolygon');
    expect(Math.abs(asset.area_in_sq_m - expected) / expected).toBeLessThan(1e-9);
  });

  it('rejects a project of another organisation or an unknown one (400 project_id)', async () => {
    for (const project_id of ['prj-other', 'prj-nope']) {
      const res = await t.call({
        method: 'POST',
        url: '/v0/aois',
        payload: aoiBody({ project_id }),
      });
      expect(res.statusCode).toBe(400);
      expect(paths(res)).toEqual(['project_id']);
      expect(res.json().error.details[0].in).toBe('body');
    }
  });

  it('rejects an unknown satellite (400 satellite_id)', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/v0/aois',
      payload: aoiBody({ satellite_id: 'sat-nope' }),
    });
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toEqual(['satellite_id']);
  });

  it('rejects item ids that are not archive scenes of the satellite, or repeated (400 item_ids.K)', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/v0/aois',
      payload: aoiBody({
        item_ids: [SCENES.cover.id, 'no-such-scene', SCENES.kestrel.id, SCENES.cover.id],
      }),
    });
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toEqual(['item_ids.1', 'item_ids.2', 'item_ids.3']);
    const messages = res.json().error.details.map((d: { message: string }) => d.message);
    expect(messages[0]).toMatch(/no archive scene/);
    expect(messages[1]).toMatch(/taken by sat-kestrel-1, not sat-aurora-1/);
    expect(messages[2]).toMatch(/listed twice/);
  });

  it('reports every problem of a body at once', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/v0/aois',
      payload: aoiBody({ project_id: 'prj-other', satellite_id: 'sat-nope', item_ids: ['x'] }),
    });
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toEqual(['project_id', 'satellite_id', 'item_ids.0']);
  });

  it('rejects a geometry without area (400 at the ring), by the same rule as order items', async () => {
    const flat = {
      type: 'Polygon',
      coordinates: [
        [
          [10, 45],
          [10.1, 45],
          [10.2, 45],
          [10, 45],
        ],
      ],
    };
    const res = await t.call({
      method: 'POST',
      url: '/v0/aois',
      payload: aoiBody({ geometry: flat }),
    });
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toEqual(['geometry.coordinates.0']);
    const bowtie = {
      type: 'Polygon',
      coordinates: [
        [
          [10, 45],
          [10.1, 45.1],
          [10.1, 45],
          [10, 45.1],
          [10, 45],
        ],
      ],
    };
    const crossed = await t.call({
      method: 'POST',
      url: '/v0/aois',
      payload: aoiBody({ geometry: bowtie }),
    });
    expect(crossed.statusCode).toBe(400);
    expect(paths(crossed)).toEqual(['geometry.coordinates.0']);
    // The same geometries in an order item: the same answer, at the feature's path.
    for (const geometry of [flat, bowtie]) {
      const order = await t.call({
        method: 'POST',
        url: '/v0/orders',
        payload: {
          order_items: [
            {
              project_id: 'prj-demo-crops',
              name: 'x',
              geometry: { type: 'FeatureCollection', features: [{ type: 'Feature', geometry }] },
              start_date: '2030-06-01T00:00:00Z',
              end_date: '2030-06-30T00:00:00Z',
            },
          ],
        },
      });
      expect(order.statusCode).toBe(400);
      expect(paths(order)).toEqual(['order_items.0.geometry.features.0.geometry.coordinates.0']);
    }
  });

  it('rejects malformed bodies with field paths (schema)', async () => {
    const { name: _n, ...noName } = aoiBody();
    const cases: [unknown, string][] = [
      [noName, 'name'],
      [aoiBody({ item_ids: [] }), 'item_ids'],
      [aoiBody({ provider: '' }), 'provider'],
      [aoiBody({ geometry: { type: 'Point', coordinates: [10, 45] } }), 'geometry.type'],
      [aoiBody({ geometry: box(10, 45, 200, 45.1) }), 'geometry.coordinates.0.1'],
      [aoiBody({ extra: 1 }), ''],
    ];
    for (const [payload, path] of cases) {
      const res = await t.call({ method: 'POST', url: '/v0/aois', payload: payload as object });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
      const found =
        path === '' ? paths(res).includes('') : paths(res).some((p) => p.startsWith(path));
      expect(found, `${path} in ${paths(res)}`).toBe(true);
    }
  });

  it('requires an API key', async () => {
    const res = await t.call({ method: 'POST', url: '/v0/aois', payload: aoiBody(), key: null });
    expect(res.statusCode).toBe(401);
  });

  it('replays a create with the same Idempotency-Key: one AOI, one set of assets, one step', async () => {
    const headers = { 'idempotency-key': 'aoi-replay-1' };
    const payload = aoiBody({ name: 'Replayed field' });
    const pendingBefore = t.app.ctx.worker.pending();
    const first = await t.call({ method: 'POST', url: '/v0/aois', payload, headers });
    const again = await t.call({ method: 'POST', url: '/v0/aois', payload, headers });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(t.app.ctx.worker.pending()).toBe(pendingBefore + 1);
    const list = (
      await t.call({ method: 'GET', url: '/v0/aois?aoi_name=replayed&limit=100' })
    ).json();
    expect(list.aois).toHaveLength(1);
    expect(await listAssets(t, first.json().aoi_id)).toHaveLength(3);
    const conflict = await t.call({
      method: 'POST',
      url: '/v0/aois',
      payload: { ...payload, name: 'Other' },
      headers,
    });
    expect(conflict.statusCode).toBe(409);
    t.app.ctx.worker.drain();
  });
});

describe('GET /v0/aois/{aoi_id}/assets', () => {
  let aoiId: string;
  beforeAll(async () => {
    aoiId = (await createAoi(t)).aoi_id;
    t.app.ctx.worker.drain();
  });

  it('pages with the spec defaults (limit 10, offset 0) in production order', async () => {
    const res = await t.call({ method: 'GET', url: `/v0/aois/${aoiId}/assets` });
    expect(res.statusCode).toBe(200);
    expect(res.json().pagination).toEqual({ limit: 10, offset: 0, total: 3 });
    const page = (
      await t.call({ method: 'GET', url: `/v0/aois/${aoiId}/assets?limit=2&offset=1` })
    ).json();
    expect(page.assets.map((a: { name: string }) => a.name)).toEqual([
      SCENES.half.id,
      SCENES.away.id,
    ]);
    expect(page.pagination).toEqual({ limit: 2, offset: 1, total: 3 });
    const past = (await t.call({ method: 'GET', url: `/v0/aois/${aoiId}/assets?offset=3` })).json();
    expect(past).toEqual({ assets: [], pagination: { limit: 10, offset: 3, total: 3 } });
  });

  it('rejects bad limit and offset with the parameter path', async () => {
    for (const [qs, path] of [
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=abc', 'limit'],
      ['offset=-1', 'offset'],
      ['offset=1.5', 'offset'],
      ['color=red', ''],
    ] as const) {
      const res = await t.call({ method: 'GET', url: `/v0/aois/${aoiId}/assets?${qs}` });
      expect(res.statusCode, qs).toBe(400);
      expect(res.json().error.details[0].path).toBe(path);
    }
    const max = await t.call({ method: 'GET', url: `/v0/aois/${aoiId}/assets?limit=1000` });
    expect(max.statusCode).toBe(200);
  });

  it('404s an unknown AOI and an AOI of another organisation', async () => {
    const unknown = await t.call({ method: 'GET', url: '/v0/aois/aoi_nope/assets' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('not_found');
    const other = await t.call({
      method: 'GET',
      url: `/v0/aois/${aoiId}/assets`,
      key: t.otherKey,
    });
    expect(other.statusCode).toBe(404);
  });

  it('requires an API key', async () => {
    const res = await t.call({ method: 'GET', url: `/v0/aois/${aoiId}/assets`, key: null });
    expect(res.statusCode).toBe(401);
  });
});

describe('cross-organisation isolation', () => {
  it('an organisation never sees or lists another organisation AOIs', async () => {
    const mine = await createAoi(t, { name: 'Isolation probe' });
    const other = (
      await t.call({ method: 'GET', url: '/v0/aois?limit=1000', key: t.otherKey })
    ).json();
    expect(other.aois).toEqual([]);
    expect(other.pagination.total).toBe(0);
    const byId = (
      await t.call({ method: 'GET', url: `/v0/aois?aoi_id=${mine.aoi_id}`, key: t.otherKey })
    ).json();
    expect(byId.aois).toEqual([]);
    // The other organisation creates in its own project and only sees that one.
    const theirs = await createAoi(
      t,
      { project_id: 'prj-other', item_ids: [SCENES.cover.id] },
      t.otherKey,
    );
    const listed = (await t.call({ method: 'GET', url: '/v0/aois', key: t.otherKey })).json();
    expect(listed.aois.map((a: { aoi_id: string }) => a.aoi_id)).toEqual([theirs.aoi_id]);
    const mineListed = (
      await t.call({ method: 'GET', url: `/v0/aois?aoi_id=${theirs.aoi_id}` })
    ).json();
    expect(mineListed.aois).toEqual([]);
    t.app.ctx.worker.drain();
  });
});
