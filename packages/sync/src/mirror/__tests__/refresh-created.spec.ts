/**
 * Following what this client created (real service, real SQLite file): the outbox records a
 * visualization, a delivery and a job when they are sent; `refreshCreated` re-reads them as the
 * service's worker moves them on, until they are final. Where a service offers no extension
 * read (404), a visualization is still followed through its AOI's assets.
 */
import { createEoClient, type EoClient } from '@eo/api-client';
import { isFinalStatus } from '@eo/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutbox } from '../../outbox/outbox';
import {
  aoiInput,
  orderInput,
  startService,
  tempDatabase,
  testClient,
  type TestService,
} from '../../outbox/__tests__/service';
import { makeCreatedRecords } from '../created';
import { makeOutboxMirror } from '../outbox-mirror';
import { refreshCreated } from '../refresh-created';

let svc: TestService;
let client: EoClient;
beforeAll(async () => {
  svc = await startService();
  client = testClient(svc.url, svc.key);
});
afterAll(async () => svc.close());

/** Queues and sends an AOI with a visualization on it, an order, its delivery and a job. */
async function sendCreates(local: ReturnType<typeof tempDatabase>, c: EoClient) {
  const outbox = createOutbox({
    db: local.sqlite,
    client: c,
    mirror: makeOutboxMirror(local.sqlite),
  });
  const aoi = outbox.enqueue('aoi', await aoiInput(c, `Followed AOI ${Math.random()}`));
  outbox.enqueue('visualization', {
    aoi_id: `local:${aoi.id}`,
    index_id: 'idx-ndvi-aurora',
    src_asset_ids: [`local:${aoi.id}#scenes`],
  });
  const order = outbox.enqueue('order', orderInput('Followed order'));
  outbox.enqueue('delivery', {
    deliveries: [
      { order_item_ids: [`local:${order.id}#0`], cloud_info: { config: 's3', path: 'field/x' } },
    ],
  });
  outbox.enqueue('job', { workflow_id: 'wf-ndvi-timeseries', project_id: 'prj-demo-crops' });
  expect(await outbox.flush()).toMatchObject({ sent: 5, failed: 0, blocked: 0 });
}

describe('refreshCreated', () => {
  it('re-reads unfinished records until the service has finished them', async () => {
    const local = tempDatabase();
    try {
      await sendCreates(local, client);
      const created = makeCreatedRecords(local.sqlite);
      expect(created.visualizations()).toHaveLength(1);
      expect(created.visualizations()[0]).toMatchObject({ status: 'creating' });
      const open = created.unfinished();
      expect(open.visualizations.length + open.deliveries.length + open.jobs.length).toBe(3);

      // Nothing moved on the service yet: everything re-read (the AOI and the order too),
      // nothing changed.
      const idle = await refreshCreated({ sqlite: local.sqlite, client });
      expect(idle).toMatchObject({ checked: 5, updated: 0, unavailable: 0, kinds: [] });

      svc.server.app.ctx.worker.drain();
      const report = await refreshCreated({ sqlite: local.sqlite, client });
      expect(report.updated).toBe(5);
      expect([...report.kinds].sort()).toEqual([
        'aois',
        'deliveries',
        'jobs',
        'orders',
        'visualizations',
      ]);
      const [v] = created.visualizations();
      expect(isFinalStatus(v!['status'] as string)).toBe(true);
      expect(v!['progress']).toBe(100);
      expect(created.jobs().every((j) => isFinalStatus(j['status'] as string))).toBe(true);
      expect(created.deliveries().every((d) => isFinalStatus(d['status'] as string))).toBe(true);
      // Final records are not asked for again.
      expect(await refreshCreated({ sqlite: local.sqlite, client })).toMatchObject({ checked: 0 });
    } finally {
      local.remove();
    }
  });

  it('without extension reads: visualizations follow their AOI assets, the rest stays as created', async () => {
    const local = tempDatabase();
    try {
      // A service without our extensions: its extension paths answer 404.
      const extension =
        /\/v0\/(jobs|orders|catalogs\/deliveries|aois\/[^/]+\/visualizations)\/[^/?]+$/;
      const plain = createEoClient({
        baseUrl: svc.url,
        apiKey: svc.key,
        fetch: (url, init) =>
          init.method === 'GET' && extension.test(new URL(url).pathname)
            ? Promise.resolve(
                new Response('{"error":{"code":"not_found","message":"no route"}}', {
                  status: 404,
                  headers: { 'content-type': 'application/json' },
                }),
              )
            : fetch(url, init),
      });
      await sendCreates(local, plain);
      svc.server.app.ctx.worker.drain();
      const report = await refreshCreated({ sqlite: local.sqlite, client: plain });
      // The order's items move through the spec's list; the order itself stays as created.
      expect(report).toMatchObject({ checked: 5, updated: 3, unavailable: 2 });
      expect(report.kinds).toEqual(['visualizations', 'aois', 'orders']);
      const created = makeCreatedRecords(local.sqlite);
      const [v] = created.visualizations();
      expect(v).toMatchObject({ progress: 100 });
      expect(isFinalStatus(v!['status'] as string)).toBe(true);
      expect((v!['assets'] as unknown[]).length).toBeGreaterThan(0);
      expect(created.unfinished().visualizations).toEqual([]);
      expect(created.unfinished().jobs).toHaveLength(1);
    } finally {
      local.remove();
    }
  });
});
