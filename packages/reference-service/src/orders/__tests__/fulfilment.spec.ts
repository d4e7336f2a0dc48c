import fs from 'node:fs';
import { CatalogRecord } from '@eo/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { ORDER_PAYMENT_STEP } from '../fulfilment';
import type { TestApp } from '../../testing/harness';
import { SCENES, archiveItem, recurringItem, taskingItem } from './fixtures';
import {
  count,
  createOrder,
  itemsOf,
  createOrdersApp,
  orderById,
  step,
  type Json,
} from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createOrdersApp();
});
afterAll(async () => t?.close());

/** Every property key spec 2.10 lists for a catalog record's details. */
const CATALOG_PROPERTY_KEYS = [
  'constellation',
  'created',
  'datetime',
  'eo:cloud_cover',
  'gsd',
  'proj:epsg',
  'sat:relative_orbit',
  'view:off_nadir',
  'view:satellite_look_angle',
  'view:sun_azimuth',
  'view:sun_elevation',
  'instruments',
  'platform',
  'proj:wkt2',
  'sat:orbit_state',
  'sci:doi',
  'updated',
  'proj:shape',
  'proj:transform',
];

function catalogRecords(app: TestApp['app'], orderItemId: string): Json[] {
  return (
    app.ctx.sqlite
      .prepare(
        'SELECT record_json, order_id, order_item_id, task_id FROM catalog_records WHERE order_item_id = ? ORDER BY seq',
      )
      .all(orderItemId) as Array<{
      record_json: string;
      order_id: string;
      order_item_id: string;
      task_id: string;
    }>
  ).map((r) => ({
    ...JSON.parse(r.record_json),
    _links: { order_id: r.order_id, task_id: r.task_id },
  }));
}

describe('order payment and tasking fulfilment, step by step', () => {
  it('moves order, item and task through every state', async () => {
    const o2 = (await createOrder(t, [taskingItem({ name: 'Step by step' })])).json();
    expect(step(t)).toBe(1);
    expect((await orderById(t, o2.id)).status).toBe('PAYMENT_IN_PROGRESS');
    expect((await itemsOf(t, o2.id))[0]).toMatchObject({
      status: 'DRAFT',
      payment_status: 'UNPAID',
      tasks: [],
    });

    expect(step(t)).toBe(1);
    const paid = await orderById(t, o2.id);
    expect(paid.status).toBe('PAID');
    expect(paid.paid_at).toMatch(/Z$/);
    expect(paid.transaction_id).toMatch(/^txn_/);
    let [item] = await itemsOf(t, o2.id);
    expect(item).toMatchObject({
      status: 'ACTIVE',
      payment_status: 'PAID',
      transaction_id: paid.transaction_id,
    });
    expect(item.tasks).toHaveLength(1);
    expect(item.tasks[0]).toMatchObject({
      order_item_id: item.id,
      type: 'TASKING',
      status: 'PENDING',
      delivery_status: 'PENDING',
      start_date: '01-06-2030',
      end_date: '30-06-2030',
      number_of_strips: 1,
      tokens_used: item.tokens_used,
      transaction_id: paid.transaction_id,
      catalog_id: null,
    });

    expect(step(t)).toBe(1);
    [item] = await itemsOf(t, o2.id);
    expect(item.tasks[0]).toMatchObject({ status: 'IN_PROGRESS', delivery_status: 'IN_PROGRESS' });
    expect(item.status).toBe('ACTIVE');

    expect(step(t)).toBe(1);
    [item] = await itemsOf(t, o2.id);
    expect(item.status).toBe('COMPLETED');
    expect(item.payment_status).toBe('PAID');
    expect(item.tasks[0]).toMatchObject({ status: 'COMPLETED', delivery_status: 'SUCCESSFUL' });
    expect(item.tasks[0].catalog_id).toMatch(/^cat_/);
    expect(step(t)).toBe(0);
    expect((await orderById(t, o2.id)).status).toBe('PAID');

    // The acquisition: a catalog record with full STAC details, linked to order, item and task.
    const [record] = catalogRecords(t.app, item.id);
    expect(CatalogRecord.safeParse(record).success).toBe(true);
    expect(record).toMatchObject({
      id: item.tasks[0].catalog_id,
      task_id: item.tasks[0].id,
      org_id: 'org-demo',
      order_id: o2.id,
      order_item_id: item.id,
      bandset_id: 'bs-aurora-rgbn',
      delivery_status: 'SUCCESSFUL',
      _links: { order_id: o2.id, task_id: item.tasks[0].id },
    });
    expect(Object.keys(record.details.properties).sort()).toEqual(
      [...CATALOG_PROPERTY_KEYS].sort(),
    );
    const p = record.details.properties;
    const at = Date.parse(p.datetime);
    expect(at).toBeGreaterThanOrEqual(Date.parse('2030-06-01T00:00:00Z'));
    expect(at).toBeLessThanOrEqual(Date.parse('2030-06-30T00:00:00Z'));
    expect(p['eo:cloud_cover']).toBeLessThanOrEqual(20);
    expect(p['view:off_nadir']).toBeLessThanOrEqual(30);
    expect(p['proj:epsg']).toBe(32632);
    expect(p['view:sun_elevation']).toBeGreaterThan(40); // June morning at 44.5° N
    expect(p.platform).toBe('aurora-1');
    expect(record.details).toMatchObject({
      type: 'Feature',
      collection: 'col-aurora-l2a',
      stac_version: '1.0.0',
    });
    const [w, s, e, n] = record.details.bbox;
    expect(w).toBeLessThan(11.3);
    expect(e).toBeGreaterThan(11.425);
    expect(s).toBeLessThan(44.45);
    expect(n).toBeGreaterThan(44.55);
    // A tasking item's images are its acquisitions.
    expect(item.images).toEqual([
      expect.objectContaining({ item_id: record.details.id, catalog_id: record.id }),
    ]);
  });
});

describe('fulfilment outcomes', () => {
  it('archive: one task per scene, records built from the scene features', async () => {
    const order = (
      await createOrder(t, [archiveItem({ item_ids: [SCENES.wide.id, SCENES.west.id] })])
    ).json();
    t.app.ctx.worker.drain();
    const [item] = await itemsOf(t, order.id);
    expect(item.status).toBe('COMPLETED');
    expect(item.tasks.map((k: Json) => [k.type, k.item_id, k.status, k.start_date])).toEqual([
      ['ARCHIVE', SCENES.wide.id, 'COMPLETED', '17-05-2024'],
      ['ARCHIVE', SCENES.west.id, 'COMPLETED', '17-05-2024'],
    ]);
    const records = catalogRecords(t.app, item.id);
    expect(records.map((r) => r.details.id)).toEqual([SCENES.wide.id, SCENES.west.id]);
    for (const r of records) {
      expect(CatalogRecord.safeParse(r).success).toBe(true);
      expect(Object.keys(r.details.properties).sort()).toEqual([...CATALOG_PROPERTY_KEYS].sort());
      expect(r.details.properties).toMatchObject({
        datetime: '2024-05-17T10:21:33.000000Z',
        'proj:epsg': 32632,
        'view:sun_elevation': 58.7,
        platform: 'aurora-1',
      });
    }
    expect(records[1].details.properties['eo:cloud_cover']).toBe(40);
    // The images of an archive item stay the ordered scenes.
    expect(item.images.map((i: Json) => i.item_id)).toEqual([SCENES.wide.id, SCENES.west.id]);
  });

  it('recurring: one task per occurrence; a failed one makes the item PARTIALLY_COMPLETED', async () => {
    const order = (
      await createOrder(t, [recurringItem({ name: 'Watch [fail-task:1]', cloud_cover: 40 })])
    ).json();
    t.app.ctx.worker.drain();
    const [item] = await itemsOf(t, order.id);
    expect(
      item.tasks.map((k: Json) => [k.start_date, k.end_date, k.status, k.delivery_status]),
    ).toEqual([
      ['01-06-2030', '08-06-2030', 'COMPLETED', 'SUCCESSFUL'],
      ['08-06-2030', '15-06-2030', 'FAILED', 'FAILED'],
      ['15-06-2030', '22-06-2030', 'COMPLETED', 'SUCCESSFUL'],
    ]);
    expect(item.tasks[1].failure_reason).toMatch(/no acquisition/);
    expect(item).toMatchObject({ status: 'PARTIALLY_COMPLETED', payment_status: 'PARTIAL-REFUND' });
    expect(item.refunded_amount).toBeCloseTo(item.final_amount / 3, 2);
    expect(catalogRecords(t.app, item.id)).toHaveLength(2);
    const after = await orderById(t, order.id);
    expect(after.status).toBe('PAID');
    expect(after.refunded_amount).toBe(item.refunded_amount);
  });

  it('every task failing fails and refunds the item; a fully refunded order is REFUND', async () => {
    const order = (await createOrder(t, [archiveItem({ name: 'Bad [fail-all-tasks]' })])).json();
    t.app.ctx.worker.drain();
    const [item] = await itemsOf(t, order.id);
    expect(item).toMatchObject({
      status: 'FAILED',
      payment_status: 'REFUND',
      refunded_amount: item.final_amount,
    });
    expect(catalogRecords(t.app, item.id)).toHaveLength(0);
    const after = await orderById(t, order.id);
    expect(after.status).toBe('REFUND');
    expect(after.refunded_amount).toBe(after.total_amount);
  });

  it('an infeasible item fails and is refunded at payment, the rest go on', async () => {
    const infeasible = taskingItem({
      name: 'Hopeless',
      start_date: '2030-06-01T00:00:00Z',
      end_date: '2030-06-02T00:00:00Z',
      cloud_cover: 5,
      off_nadir: 5,
    });
    const order = (await createOrder(t, [infeasible, archiveItem()])).json();
    expect(order.order_items[0].feasibility_status).toBe('FAILED');
    t.app.ctx.worker.drain();
    const [bad, good] = await itemsOf(t, order.id);
    expect(bad).toMatchObject({ status: 'FAILED', payment_status: 'REFUND', tasks: [] });
    expect(bad.refunded_amount).toBe(bad.final_amount);
    expect(good).toMatchObject({ status: 'COMPLETED', payment_status: 'PAID' });
    const after = await orderById(t, order.id);
    expect(after.status).toBe('PAID');
    expect(after.refunded_amount).toBe(bad.final_amount);

    const alone = (await createOrder(t, [infeasible])).json();
    t.app.ctx.worker.drain();
    expect((await orderById(t, alone.id)).status).toBe('REFUND');
  });

  it('a declined payment leaves the order UNPAID and cancels its items', async () => {
    const order = (
      await createOrder(t, [taskingItem({ name: 'Card [fail-payment]' }), archiveItem()])
    ).json();
    t.app.ctx.worker.drain();
    const after = await orderById(t, order.id);
    expect(after).toMatchObject({ status: 'UNPAID', paid_at: null, transaction_id: null });
    const items = await itemsOf(t, order.id);
    expect(items.map((i) => [i.status, i.payment_status, i.tasks.length])).toEqual([
      ['CANCELLED', 'UNPAID', 0],
      ['CANCELLED', 'UNPAID', 0],
    ]);
  });

  it('a duplicated step changes nothing', async () => {
    const order = (await createOrder(t, [archiveItem()])).json();
    t.app.ctx.worker.drain();
    const before = {
      tasks: count(t, 'tasks', 'order_id = ?', order.id),
      records: count(t, 'catalog_records', 'order_id = ?', order.id),
    };
    const snapshot = await orderById(t, order.id);
    t.app.ctx.sqlite.transaction(() => t.app.ctx.worker.schedule(ORDER_PAYMENT_STEP, order.id))();
    const [item] = await itemsOf(t, order.id);
    t.app.ctx.sqlite.transaction(() =>
      t.app.ctx.worker.schedule('task.advance', item.tasks[0].id),
    )();
    expect(t.app.ctx.worker.drain()).toBe(2);
    expect(await orderById(t, order.id)).toEqual(snapshot);
    expect({
      tasks: count(t, 'tasks', 'order_id = ?', order.id),
      records: count(t, 'catalog_records', 'order_id = ?', order.id),
    }).toEqual(before);
  });
});

describe('restart during fulfilment', () => {
  it('resumes after a restart and does every effect exactly once', async () => {
    const order = (
      await createOrder(t, [
        recurringItem({ name: 'Restart watch', cloud_cover: 40 }),
        archiveItem({ item_ids: [SCENES.wide.id, SCENES.west.id] }),
      ])
    ).json();
    // Pay, then start a few tasks, then "crash".
    for (let i = 0; i < 4; i++) expect(step(t)).toBe(1);
    expect(count(t, 'tasks', 'order_id = ?', order.id)).toBe(5);
    const pending = t.app.ctx.worker.pending();
    expect(pending).toBeGreaterThan(0);
    await t.app.close();

    const app = await buildApp({
      dataDir: t.dataDir,
      logLevel: false,
      workerTickMs: 0,
      stepDelayMs: 0,
      validateResponses: true,
    });
    try {
      expect(app.ctx.worker.pending()).toBe(pending);
      app.ctx.worker.drain();
      const res = await app.inject({
        method: 'GET',
        url: `/v0/order-items?order_ids=${order.id}`,
        headers: { authorization: t.key },
      });
      const items = res.json().order_items as Json[];
      expect(items.map((i) => i.status)).toEqual(['COMPLETED', 'COMPLETED']);
      const tasks = items.flatMap((i) => i.tasks as Json[]);
      expect(tasks).toHaveLength(5);
      expect(tasks.every((k) => k.status === 'COMPLETED')).toBe(true);
      const records = app.ctx.sqlite
        .prepare(
          'SELECT task_id, count(*) AS n FROM catalog_records WHERE order_id = ? GROUP BY task_id',
        )
        .all(order.id) as Array<{ task_id: string; n: number }>;
      expect(records).toHaveLength(5);
      expect(records.every((r) => r.n === 1)).toBe(true);
      expect(new Set(records.map((r) => r.task_id))).toEqual(new Set(tasks.map((k) => k.id)));
      expect(app.ctx.worker.pending()).toBe(0);
    } finally {
      await app.close();
      fs.rmSync(t.dataDir, { recursive: true, force: true });
    }
    // Later tests in this file must not use `t`.
    t = undefined as unknown as TestApp;
  });
});
