/**
 * A delivery of a queued order's items (`local:<order>#0`) waits until the mirror shows the
 * items completed (issue 17, item 3): sent as soon as the order existed, the service failed it
 * ("has no completed task"). Against the real reference service on 127.0.0.1; the mirror is
 * refreshed by the create's own answer and by sync, as in the app.
 */
import { type EoClient } from '@eo/api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeOutboxMirror } from '../../mirror/outbox-mirror';
import { createSyncEngine } from '../../pull/engine';
import { WAITING_FOR_ITEMS } from '../delivery-wait';
import { deliveryIdsOf, type OutboxInput } from '../kinds';
import { createOutbox } from '../outbox';
import { aoiInput, startService, tempDatabase, testClient, type TestService } from './service';

let service: TestService;
let client: EoClient;

beforeAll(async () => {
  service = await startService();
  client = testClient(service.url, service.key);
});
afterAll(async () => service.close());

/** An archive order of one mirrored-or-not Aurora scene, over a square inside it. */
async function archiveOrder(name: string): Promise<OutboxInput<'order'>> {
  const aoi = await aoiInput(client, name);
  return {
    order_items: [
      {
        project_id: 'prj-demo-crops',
        name,
        geometry: {
          type: 'FeatureCollection',
          features: [{ type: 'Feature', geometry: aoi.geometry }],
        },
        item_ids: aoi.item_ids,
      },
    ],
  };
}

const deliveryOf = (orderEntryId: string): OutboxInput<'delivery'> => ({
  deliveries: [
    {
      order_item_ids: [`local:${orderEntryId}#0`],
      cloud_info: { config: 's3-default', path: 'field/after-order' },
    },
  ],
});

describe("a delivery of a queued order's items", () => {
  it('waits for the items to complete in the mirror, then goes and succeeds', async () => {
    const local = tempDatabase();
    try {
      const outbox = createOutbox({
        db: local.sqlite,
        mirror: makeOutboxMirror(local.sqlite),
        waitForOrderItems: true,
      });
      const order = outbox.enqueue('order', await archiveOrder('Deliver when done'));
      const delivery = outbox.enqueue('delivery', deliveryOf(order.id));

      // The order goes; the mirror has its item as the answer gave it (not completed yet).
      expect(await outbox.flush({ client })).toMatchObject({ sent: 1, failed: 0, remaining: 1 });
      const waiting = outbox.get(delivery.id)!;
      expect(waiting).toMatchObject({ state: 'queued', attempts: 0 });
      expect(waiting.lastError).toMatchObject({ kind: 'waiting' });
      expect(waiting.lastError!.message).toContain(WAITING_FOR_ITEMS);
      const itemId = (outbox.get(order.id)!.response as { order_items: Array<{ id: string }> })
        .order_items[0]!.id;
      expect(waiting.lastError!.message).toContain(itemId);

      // Still not completed in the mirror: a second flush leaves it waiting, nothing sent.
      expect(await outbox.flush({ client })).toMatchObject({ sent: 0, remaining: 1 });

      // The service completes the item; sync brings that into the mirror; the delivery goes.
      await service.server.app.ctx.worker.drain();
      await createSyncEngine({ db: local, client }).sync({ resources: ['orderItems'] });
      expect(await outbox.flush({ client })).toMatchObject({ sent: 1, failed: 0, remaining: 0 });
      const sent = outbox.get(delivery.id)!;
      expect(sent).toMatchObject({ state: 'sent', lastError: null });

      await service.server.app.ctx.worker.drain();
      const [first] = deliveryIdsOf(sent.response);
      expect(sent.remoteId).toBe(deliveryIdsOf(sent.response).join(','));
      const made = await client.extensions.getDelivery(first!);
      expect(made).toMatchObject({ status: 'SUCCESS' });
    } finally {
      local.remove();
    }
  });

  it('is blocked, saying why, when an item ends without anything to deliver', async () => {
    const local = tempDatabase();
    try {
      const outbox = createOutbox({
        db: local.sqlite,
        mirror: makeOutboxMirror(local.sqlite),
        waitForOrderItems: true,
      });
      // The reference service fails every task of an item so named (failure-injection.ts).
      const order = outbox.enqueue('order', await archiveOrder('Doomed [fail-all-tasks]'));
      const delivery = outbox.enqueue('delivery', deliveryOf(order.id));
      await outbox.flush({ client });
      expect(outbox.get(delivery.id)!.lastError).toMatchObject({ kind: 'waiting' });

      await service.server.app.ctx.worker.drain();
      await createSyncEngine({ db: local, client }).sync({ resources: ['orderItems'] });
      expect(await outbox.flush({ client })).toMatchObject({ sent: 0, blocked: 1, remaining: 0 });
      const blocked = outbox.get(delivery.id)!;
      expect(blocked).toMatchObject({ state: 'blocked', attempts: 0 });
      expect(blocked.lastError!.message).toMatch(/\(FAILED\) ended without anything to deliver/);
      // Nothing was asked of the service: the user edits or cancels it.
      expect(outbox.cancel(delivery.id).state).toBe('cancelled');
    } finally {
      local.remove();
    }
  });
});
