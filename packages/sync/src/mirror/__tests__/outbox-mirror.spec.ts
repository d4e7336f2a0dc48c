/**
 * Creates sent by the outbox appear in the mirror at once (real service, real SQLite file), and
 * a later complete pull keeps them (they exist upstream) instead of sweeping them.
 */
import type { EoClient } from '@eo/api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutbox } from '../../outbox/outbox';
import {
  aoiInput,
  indexInput,
  orderInput,
  startService,
  tempDatabase,
  testClient,
  type TestService,
} from '../../outbox/__tests__/service';
import { createSyncEngine } from '../../pull/engine';
import { filterAois, filterOrderItems, filterOrders } from '../../search/local-filters';
import { makeCreatedRecords } from '../created';
import { makeOutboxMirror } from '../outbox-mirror';

let svc: TestService;
let client: EoClient;
beforeAll(async () => {
  svc = await startService();
  client = testClient(svc.url, svc.key);
});
afterAll(async () => svc.close());

describe('outbox -> mirror', () => {
  it('records orders with their items, AOIs, indices, deliveries and jobs when sent', async () => {
    const local = tempDatabase();
    try {
      const outbox = createOutbox({
        db: local.sqlite,
        client,
        mirror: makeOutboxMirror(local.sqlite),
      });
      const order = outbox.enqueue('order', orderInput('Mirrored order'));
      const aoi = outbox.enqueue('aoi', await aoiInput(client, 'Mirrored AOI'));
      const index = outbox.enqueue('index', indexInput('Mirrored index'));
      outbox.enqueue('delivery', {
        deliveries: [
          {
            order_item_ids: [`local:${order.id}#0`],
            cloud_info: { config: 's3-default', path: 'field/mirror' },
          },
        ],
      });
      outbox.enqueue('job', { workflow_id: 'wf-ndvi-timeseries', project_id: 'prj-demo-crops' });
      expect(await outbox.flush()).toMatchObject({ sent: 5, failed: 0 });

      const orderId = outbox.get(order.id)!.remoteId;
      expect(filterOrders<{ id: string }>(local.sqlite).map((o) => o.id)).toEqual([orderId]);
      const items = filterOrderItems<{ name: string; order_id: string }>(local.sqlite);
      expect(items.map((i) => [i.name, i.order_id])).toEqual([['Mirrored order', orderId]]);
      expect(filterAois<{ aoi_id: string }>(local.sqlite).map((a) => a.aoi_id)).toEqual([
        outbox.get(aoi.id)!.remoteId,
      ]);
      const indexRow = local.sqlite
        .prepare('SELECT id FROM mirror_indices WHERE id = ?')
        .get(outbox.get(index.id)!.remoteId);
      expect(indexRow).toBeDefined();
      const created = makeCreatedRecords(local.sqlite);
      expect(created.deliveries()).toHaveLength(1);
      expect(created.jobs().map((j) => j['workflow_id'])).toEqual(['wf-ndvi-timeseries']);

      // A complete pull afterwards keeps them: they are listed upstream too.
      await createSyncEngine({ db: local, client }).sync({
        resources: ['orders', 'orderItems', 'aois', 'indices'],
      });
      expect(filterOrders<{ id: string }>(local.sqlite).map((o) => o.id)).toContain(orderId);
      expect(filterAois<{ aoi_id: string }>(local.sqlite).map((a) => a.aoi_id)).toContain(
        outbox.get(aoi.id)!.remoteId,
      );
      expect(created.deliveries()).toHaveLength(1);
    } finally {
      local.remove();
    }
  });

  it('ignores a response that is not an object (the entry stays sent, nothing written)', async () => {
    const local = tempDatabase();
    try {
      const mirror = makeOutboxMirror(local.sqlite);
      await mirror.recordCreated('order', null);
      await mirror.recordCreated('delivery', { deliveries: 'nope' });
      expect(filterOrders(local.sqlite)).toEqual([]);
      expect(makeCreatedRecords(local.sqlite).deliveries()).toEqual([]);
    } finally {
      local.remove();
    }
  });
});
