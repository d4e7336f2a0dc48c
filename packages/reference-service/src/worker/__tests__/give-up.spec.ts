/**
 * Every background step kind, when it fails on every retry, leaves its resource in a final
 * failed status with a reason (in the same transaction as the step's removal), never in a
 * state clients follow forever (a delivery stayed IN_PROGRESS after ENAMETOOLONG).
 *
 * Faults are real: a SQLite trigger refusing the success write, or a file where the delivery
 * folder must be. The reason says what kind of error, never a path.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SCENES as AOI_SCENES,
  createAoi,
  insertFixtureScenes,
} from '../../aois/__tests__/fixtures';
import { archiveItem, taskingItem } from '../../orders/__tests__/fixtures';
import { createOrder, itemsOf, createOrdersApp, type Json } from '../../orders/__tests__/helpers';
import { createTestApp, type TestApp } from '../../testing/harness';
import { MAX_ATTEMPTS } from '../worker';

const GAVE_UP = new RegExp(
  `^the service gave up after ${MAX_ATTEMPTS} attempts \\(([A-Z0-9_]+)\\)$`,
);

/** Refuses updates of `table` matching `when` until the returned function is called. */
function fault(t: TestApp, table: string, when: string): () => void {
  const name = `fault_${table}`;
  t.app.ctx.sqlite.exec(
    `CREATE TRIGGER ${name} BEFORE UPDATE ON ${table} WHEN ${when}
     BEGIN SELECT RAISE(ABORT, 'injected fault'); END`,
  );
  return () => t.app.ctx.sqlite.exec(`DROP TRIGGER ${name}`);
}

/** Runs queued steps (retries included) until none is left; bounded, with what was left. */
function runAll(t: TestApp): void {
  const { worker } = t.app.ctx;
  for (let round = 0; round < 20 * MAX_ATTEMPTS; round++) {
    worker.runDue({ ignoreDueTime: true });
    if (worker.pending() === 0) return;
  }
  const left = t.app.ctx.sqlite.prepare('SELECT kind, ref_id, attempts FROM work_items').all();
  throw new Error(`steps still queued after ${20 * MAX_ATTEMPTS} rounds: ${JSON.stringify(left)}`);
}

describe('orders and deliveries', () => {
  let t: TestApp;
  let catalogIds: string[];
  beforeAll(async () => {
    t = await createOrdersApp();
    const order = (await createOrder(t, [archiveItem()])).json();
    runAll(t);
    catalogIds = (await itemsOf(t, order.id))[0].tasks.map((k: Json) => k.catalog_id);
  });
  afterAll(async () => t.close());

  it('delivery.advance: the manifest cannot be written -> FAILED with a reason', async () => {
    // A file where the organisation's delivery folder must be: every write fails (not "unsafe").
    const root = t.app.ctx.config.deliveryRoot;
    fs.mkdirSync(root, { recursive: true });
    fs.writeFileSync(path.join(root, 'org-demo'), 'not a folder');
    try {
      const res = await t.call({
        method: 'POST',
        url: '/v0/catalogs/deliveries',
        payload: {
          deliveries: [{ catalog_ids: [catalogIds[0]], cloud_info: { config: 'c', path: 'x' } }],
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json().deliveries[0].delivery_id;
      runAll(t);
      const d = (await t.call({ method: 'GET', url: `/v0/catalogs/deliveries/${id}` })).json();
      expect(d.status).toBe('FAILED');
      expect(d.reason).toMatch(GAVE_UP);
      expect(d.reason).not.toContain(root);
    } finally {
      fs.rmSync(path.join(root, 'org-demo'), { force: true });
    }
  });

  it('order.payment: payment cannot complete -> order UNPAID, items CANCELLED with PAYMENT_FAILED', async () => {
    const heal = fault(t, 'orders', "NEW.status = 'PAID'");
    try {
      const order = (await createOrder(t, [taskingItem()])).json();
      runAll(t);
      const [item] = await itemsOf(t, order.id);
      expect(item.status).toBe('CANCELLED');
      expect(item.validation_errors).toContainEqual({
        code: 'PAYMENT_FAILED',
        field: 'status',
        message: expect.stringMatching(GAVE_UP),
      });
      const orders = (await t.call({ method: 'GET', url: '/v0/orders?limit=1000' })).json().orders;
      expect(orders.find((o: Json) => o.id === order.id).status).toBe('UNPAID');
    } finally {
      heal();
    }
  });

  it('task.advance: a task cannot complete -> task FAILED with a reason, item FAILED and refunded', async () => {
    const heal = fault(t, 'tasks', "NEW.status = 'COMPLETED'");
    try {
      const order = (await createOrder(t, [taskingItem()])).json();
      runAll(t);
      const [item] = await itemsOf(t, order.id);
      expect(item.tasks.map((k: Json) => k.status)).toEqual(['FAILED']);
      const reason = t.app.ctx.sqlite
        .prepare('SELECT failure_reason FROM tasks WHERE id = ?')
        .pluck()
        .get(item.tasks[0].id);
      expect(reason).toMatch(GAVE_UP);
      expect(item).toMatchObject({ status: 'FAILED', payment_status: 'REFUND' });
    } finally {
      heal();
    }
  });
});

describe('AOIs, visualizations and jobs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    insertFixtureScenes(t);
  });
  afterAll(async () => t.close());

  const assets = async (aoiId: string): Promise<Json[]> =>
    (await t.call({ method: 'GET', url: `/v0/aois/${aoiId}/assets?limit=1000` })).json().assets;
  const aoiOf = async (aoiId: string): Promise<Json> =>
    (await t.call({ method: 'GET', url: `/v0/aois?aoi_id=${aoiId}` })).json().aois[0];
  const visualize = (aoiId: string, src: string[]) =>
    t.call({
      method: 'POST',
      url: `/v0/aois/${aoiId}/visualizations`,
      payload: { index_id: 'idx-ndvi-aurora', src_asset_ids: src },
    });

  it('aoi.advance: scenes cannot be cut -> AOI failed, assets failed with the reason, waiting visualization ends too', async () => {
    const heal = fault(t, 'assets', "NEW.status = 'success'");
    try {
      const aoi = await createAoi(t, { item_ids: [AOI_SCENES.cover.id, AOI_SCENES.half.id] });
      const scene = (await assets(aoi.aoi_id))[0];
      const vis = await visualize(aoi.aoi_id, [scene.id]);
      expect(vis.statusCode, vis.body).toBe(201);
      runAll(t);
      expect(await aoiOf(aoi.aoi_id)).toMatchObject({ status: 'failed', progress: 100 });
      for (const a of await assets(aoi.aoi_id)) {
        expect(a.status).toBe('failed');
        if (a.asset_type === 'scene') expect(a.description).toMatch(GAVE_UP);
      }
      const after = await t.call({
        method: 'GET',
        url: `/v0/aois/${aoi.aoi_id}/visualizations/${vis.json().id}`,
      });
      expect(after.json().status).toBe('failed');
    } finally {
      heal();
    }
  });

  it('visualization.advance: index assets cannot be made -> visualization failed, AOI settled', async () => {
    const aoi = await createAoi(t, { item_ids: [AOI_SCENES.cover.id] });
    runAll(t);
    const [scene] = await assets(aoi.aoi_id);
    const heal = fault(t, 'assets', "NEW.status = 'success' AND NEW.visualization_id IS NOT NULL");
    try {
      const vis = await visualize(aoi.aoi_id, [scene.id]);
      expect(vis.statusCode, vis.body).toBe(201);
      runAll(t);
      const after = (
        await t.call({
          method: 'GET',
          url: `/v0/aois/${aoi.aoi_id}/visualizations/${vis.json().id}`,
        })
      ).json();
      expect(after).toMatchObject({ status: 'failed', progress: 100 });
      expect(after.assets.map((a: Json) => a.description)).toEqual([
        expect.stringMatching(GAVE_UP),
      ]);
      expect((await aoiOf(aoi.aoi_id)).status).toBe('success');
    } finally {
      heal();
    }
  });

  it('job.advance: a task cannot finish -> job FAILED, the task FAILED with the reason, the rest SKIPPED', async () => {
    await createAoi(t, { item_ids: [AOI_SCENES.cover.id] });
    runAll(t);
    const heal = fault(t, 'job_tasks', "NEW.status = 'SUCCEEDED'");
    try {
      const res = await t.call({
        method: 'POST',
        url: '/v0/workflows/wf-ndvi-timeseries/jobs?project_id=prj-demo-crops',
      });
      expect(res.statusCode, res.body).toBe(201);
      runAll(t);
      const job = (await t.call({ method: 'GET', url: `/v0/jobs/${res.json().id}` })).json();
      expect(job.status).toBe('FAILED');
      expect(job.finished_at).not.toBeNull();
      expect(job.tasks.map((k: Json) => k.status)).toEqual(['FAILED', 'SKIPPED', 'SKIPPED']);
      expect(job.tasks[0]).toMatchObject({
        err_msg: expect.stringMatching(GAVE_UP),
        failure_type: 'SYSTEM',
      });
    } finally {
      heal();
    }
  });
});
