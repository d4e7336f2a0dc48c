/**
 * The provider's operations a field team needs, served as extensions at the provider's paths
 * and in its shapes (`@eo/domain` field-operations.ts), through `app.inject`.
 */
import {
  Aoi,
  ArchiveCollectionList,
  ArchiveFeatureCollection,
  DeliveryList,
  Job,
  JobList,
  OrderItem,
  StoreList,
  VisualizationList,
  WorkflowCostEstimate,
} from '@eo/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAoi,
  insertFixtureScenes,
  listAssets,
  SCENES as AOI_SCENES,
} from '../aois/__tests__/fixtures';
import { archiveItem, SCENES } from '../orders/__tests__/fixtures';
import { createOrder, createOrdersApp, itemsOf, type Json } from '../orders/__tests__/helpers';
import { estimate, workflowById } from '../jobs/workflows';
import { OTHER, type TestApp } from '../testing/harness';

let t: TestApp;
let catalogIds: string[];
let itemId: string;
let aoiId: string;
let jobId: string;

const get = async (url: string, key?: string) => {
  const res = await t.call({ method: 'GET', url, key });
  return { status: res.statusCode, body: res.json() as Json };
};

beforeAll(async () => {
  t = await createOrdersApp();
  insertFixtureScenes(t);
  const order = (
    await createOrder(t, [archiveItem({ item_ids: [SCENES.wide.id, SCENES.west.id] })])
  ).json();
  t.app.ctx.worker.drain();
  const [item] = await itemsOf(t, order.id);
  itemId = item.id;
  catalogIds = item.tasks.map((k: Json) => k.catalog_id);
  const delivered = await t.call({
    method: 'POST',
    url: '/v0/catalogs/deliveries',
    payload: {
      deliveries: [
        { catalog_ids: catalogIds, cloud_info: { config: 'store-s3-field', path: 'field/a' } },
      ],
    },
  });
  expect(delivered.statusCode, delivered.body).toBe(201);
  aoiId = (await createAoi(t, { item_ids: [AOI_SCENES.cover.id] })).aoi_id;
  t.app.ctx.worker.drain();
  const sceneAssets = (await listAssets(t, aoiId)).map((a: Json) => a.id as string);
  for (const index_id of ['idx-ndvi-aurora', 'idx-ndwi-aurora']) {
    const v = await t.call({
      method: 'POST',
      url: `/v0/aois/${aoiId}/visualizations`,
      payload: { index_id, src_asset_ids: sceneAssets },
    });
    expect(v.statusCode, v.body).toBe(201);
  }
  const job = await t.call({
    method: 'POST',
    url: '/v0/workflows/wf-cloud-mask/jobs?project_id=prj-demo-crops',
  });
  expect(job.statusCode, job.body).toBe(201);
  jobId = job.json().id;
});
afterAll(async () => t?.close());

describe('GET /ping', () => {
  it('answers a JSON string without a key', async () => {
    const res = await t.call({ method: 'GET', url: '/ping', key: null });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toBe('pong');
  });
});

describe('GET /v0/catalogs/deliveries', () => {
  it("lists the organisation's deliveries, where each landed, filtered by any one id", async () => {
    const all = DeliveryList.parse((await get('/v0/catalogs/deliveries')).body).deliveries;
    expect(all.map((d) => d.catalog_id).sort()).toEqual([...catalogIds].sort());
    expect(all.every((d) => d.target_path?.startsWith('field/a/'))).toBe(true);
    expect(all[0]!.cloud_delivery).toEqual({ config: 'store-s3-field', path: 'field/a' });

    const one = all[1]!;
    const byId = await get(`/v0/catalogs/deliveries?delivery_id=${one.delivery_id}`);
    expect(byId.body.deliveries.map((d: Json) => d.delivery_id)).toEqual([one.delivery_id]);
    const byCatalog = await get(`/v0/catalogs/deliveries?catalog_id=${one.catalog_id}`);
    expect(byCatalog.body.deliveries).toHaveLength(1);
    const byTask = await get(`/v0/catalogs/deliveries?task_id=${one.task_id}`);
    expect(byTask.body.deliveries).toHaveLength(1);
    const none = await get('/v0/catalogs/deliveries?order_item_id=nope');
    expect(none.body.deliveries).toEqual([]);
  });

  it("never shows another organisation's deliveries, and refuses unknown filters", async () => {
    expect((await get('/v0/catalogs/deliveries', t.otherKey)).body.deliveries).toEqual([]);
    const bad = await get('/v0/catalogs/deliveries?colour=red');
    expect(bad.status).toBe(400);
  });
});

describe('workflow jobs and the cost estimate', () => {
  it("lists a workflow's jobs without tasks, and reads one with its tasks", async () => {
    const list = JobList.parse((await get('/v0/workflows/wf-cloud-mask/jobs')).body).jobs;
    expect(list.map((j) => j.id)).toEqual([jobId]);
    expect(list[0]!.tasks).toBeUndefined();
    const job = await get(`/v0/workflows/wf-cloud-mask/jobs/${jobId}`);
    expect(job.status).toBe(200);
    expect(Job.parse(job.body).tasks!.length).toBe(workflowById('wf-cloud-mask')!.steps.length);
    expect(
      (await get(`/v0/workflows/wf-cloud-mask/jobs?id=${jobId}&status=queued`)).body.jobs,
    ).toHaveLength(1);
    expect((await get('/v0/workflows/wf-cloud-mask/jobs?status=FAILED')).body.jobs).toEqual([]);
    expect((await get('/v0/workflows/wf-ndvi-timeseries/jobs')).body.jobs).toEqual([]);
  });

  it('knows a job only under its own workflow and organisation', async () => {
    expect((await get(`/v0/workflows/wf-ndvi-timeseries/jobs/${jobId}`)).status).toBe(404);
    expect((await get(`/v0/workflows/wf-cloud-mask/jobs/${jobId}`, t.otherKey)).status).toBe(404);
    expect((await get('/v0/workflows/wf-nope/jobs')).status).toBe(404);
  });

  it("estimates a workflow's credits over a project's AOIs (one AOI without a project)", async () => {
    const w = workflowById('wf-cloud-mask')!;
    const one = WorkflowCostEstimate.parse(
      (await get('/v0/workflows/wf-cloud-mask/estimate')).body,
    );
    expect(one.estimated_cost).toBe(estimate(w, 1).tokens);
    const project = await get('/v0/workflows/wf-cloud-mask/estimate?project_id=prj-demo-crops');
    expect(project.status).toBe(200);
    expect(project.body.estimated_cost).toBe(estimate(w, project.body.aoi_count).tokens);
    expect(project.body.aoi_count).toBeGreaterThanOrEqual(1);
    const theirs = await get(`/v0/workflows/wf-cloud-mask/estimate?project_id=${OTHER.projectId}`);
    expect(theirs.status).toBe(400);
    expect((await get('/v0/workflows/wf-nope/estimate')).status).toBe(404);
  });
});

describe('stores, visualizations, archive collections and search, single reads', () => {
  it('lists the delivery stores, one per store type, with no secrets', async () => {
    const res = await get('/v0/stores');
    const stores = StoreList.parse(res.body).stores;
    expect(stores.map((s) => s.type)).toEqual(['S3', 'GCS', 'AZBLOB']);
    expect(stores[0]!.configs).toMatchObject({ bucket: expect.any(String) });
    expect(JSON.stringify(res.body)).not.toMatch(/secret/i);
  });

  it("lists an AOI's visualizations under `visualization`, paged and filtered", async () => {
    const res = await get(`/v0/aois/${aoiId}/visualizations?limit=1`);
    const page = VisualizationList.parse(res.body);
    expect(page.visualization).toHaveLength(1);
    expect(page.pagination).toMatchObject({ limit: 1, offset: 0, total: 2 });
    const second = (await get(`/v0/aois/${aoiId}/visualizations?limit=1&offset=1`)).body;
    expect(second.visualization[0].id).not.toBe(page.visualization[0]!.id);
    const byIndex = await get(`/v0/aois/${aoiId}/visualizations?index_id=idx-ndwi-aurora`);
    expect(byIndex.body.visualization.map((v: Json) => v.index_id)).toEqual(['idx-ndwi-aurora']);
    expect((await get(`/v0/aois/${aoiId}/visualizations`, t.otherKey)).status).toBe(404);
  });

  it('lists archive collections (all, or by ids) as STAC Collections', async () => {
    const listed = await get('/v0/archives/collections');
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const all = ArchiveCollectionList.parse(listed.body);
    expect(all.collections.map((c) => c.id)).toEqual(['col-aurora-l2a', 'col-kestrel-ortho']);
    const [first] = all.collections;
    expect(first!.extent!.temporal!.interval![0]![0]).toMatch(/^\d{4}-/);
    const one = await get('/v0/archives/collections?ids=col-kestrel-ortho');
    expect(one.body.collections.map((c: Json) => c.id)).toEqual(['col-kestrel-ortho']);
  });

  it('searches across collections by collections, ids, datetime and bbox, newest first', async () => {
    const search = async (body: Record<string, unknown>) => {
      const res = await t.call({ method: 'POST', url: '/v0/archives/search', payload: body });
      return { status: res.statusCode, body: res.json() as Json };
    };
    const all = await search({ limit: 5 });
    expect(all.status).toBe(200);
    const fc = ArchiveFeatureCollection.parse(all.body);
    expect(fc.features).toHaveLength(5);
    const times = fc.features.map((f) => String(f.properties.datetime));
    expect([...times].sort().reverse()).toEqual(times);
    expect(fc.links.find((l) => l.rel === 'next')).toMatchObject({ method: 'POST' });

    const byId = await search({ ids: [SCENES.wide.id] });
    expect(byId.body.features.map((f: Json) => f.id)).toEqual([SCENES.wide.id]);
    const kestrel = await search({ collections: ['col-kestrel-ortho'], limit: 50 });
    expect(kestrel.body.features.every((f: Json) => f.collection === 'col-kestrel-ortho')).toBe(
      true,
    );
    const far = await search({ bbox: [-179, -89, -178, -88] });
    expect(far.body.features).toEqual([]);
    const future = await search({ datetime: '2999-01-01T00:00:00Z/..' });
    expect(future.body.features).toEqual([]);
    expect((await search({ collections: ['col-nope'] })).status).toBe(400);
    expect((await search({ bbox: [10, 0, 5, 1] })).status).toBe(400);
  });

  it('reads one AOI and one order item, never another organisation’s', async () => {
    const aoi = await get(`/v0/aoi/${aoiId}`);
    expect(Aoi.parse(aoi.body).aoi_id).toBe(aoiId);
    expect((await get(`/v0/aoi/${aoiId}`, t.otherKey)).status).toBe(404);
    const item = await get(`/v0/order-items/${itemId}`);
    expect(OrderItem.parse(item.body).id).toBe(itemId);
    expect(item.body.tasks.map((k: Json) => k.catalog_id)).toEqual(catalogIds);
    expect((await get(`/v0/order-items/${itemId}`, t.otherKey)).status).toBe(404);
  });
});
