/**
 * Orders cost money: queued offline, they wait for the user's confirmation in the review when
 * the service comes back (with the deliveries of their items, which then wait for the items to
 * complete), while free creates go automatically; "Submit all" sends no order either. The
 * `autoSendOrders` setting sends them automatically too.
 */
import { createEoClient } from '@eo/api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlushResult } from '../../shared/contract';
import { startBackend, startService, type TestBackend, type TestService } from './harness';
import { aoiInput, auroraScene, taskingOrder } from './create-inputs';

let service: TestService;
let scene: Awaited<ReturnType<typeof auroraScene>>;
beforeAll(async () => {
  service = await startService(60);
  scene = await auroraScene(createEoClient({ baseUrl: service.url, apiKey: service.key }));
});
afterAll(async () => {
  await service?.close();
});

/** Order items of that name in the service's own database. */
function itemsOnService(name: string): number {
  const row = service.server.app.ctx.sqlite
    .prepare('SELECT count(*) AS n FROM order_items WHERE name = ?')
    .get(name) as { n: number };
  return row.n;
}

/** Queued with no service configured (offline), then the service is set up: the auto-flush. */
async function queueOfflineThenConnect(t: TestBackend, orderName: string) {
  const order = await t.call('outbox.enqueue', {
    kind: 'order',
    input: taskingOrder([{ name: orderName }]),
  });
  const delivery = await t.call('outbox.enqueue', {
    kind: 'delivery',
    input: {
      deliveries: [
        {
          order_item_ids: [`local:${order.id}#0`],
          cloud_info: { config: 's3-default', path: 'field/orders-wait' },
        },
      ],
    },
  });
  const aoi = await t.call('outbox.enqueue', {
    kind: 'aoi',
    input: aoiInput(`${orderName} AOI`, scene.id, scene.box),
  });
  const finished = t.waitFor('outbox.finished', () => true, { what: 'the auto-flush' });
  await t.call('settings.update', { serviceUrl: service.url, apiKey: service.key });
  return { order, delivery, aoi, auto: (await finished) as FlushResult };
}

const stateOf = async (t: TestBackend, id: string) =>
  (await t.call('outbox.list')).entries.find((e) => e.id === id)?.state;

/** A delivery of a sent order's items that are not completed yet: queued, waiting, never tried. */
async function expectWaiting(t: TestBackend, id: string) {
  const entry = (await t.call('outbox.list')).entries.find((e) => e.id === id)!;
  expect(entry).toMatchObject({ state: 'queued', attempts: 0, lastError: { kind: 'waiting' } });
  expect(entry.lastError!.message).toContain('waiting for order items to complete');
}

describe('queued orders on reconnect', () => {
  it('wait for the review by default; free creates go automatically', async () => {
    const t = startBackend();
    try {
      expect((await t.call('settings.get')).autoSendOrders).toBe(false);
      const { order, delivery, aoi, auto } = await queueOfflineThenConnect(t, 'Waits for me');
      expect(auto).toMatchObject({ sent: 1, failed: 0, blocked: 0, remaining: 2, problems: [] });
      expect(await stateOf(t, aoi.id)).toBe('sent');
      expect(await stateOf(t, order.id)).toBe('queued');
      expect(await stateOf(t, delivery.id)).toBe('queued');
      expect(itemsOnService('Waits for me')).toBe(0);

      // "Submit all" is no confirmation of a price: the order stays.
      expect(await t.call('outbox.flush')).toMatchObject({ sent: 0, failed: 0, remaining: 2 });
      expect(await stateOf(t, order.id)).toBe('queued');
      expect(itemsOnService('Waits for me')).toBe(0);

      const review = await t.call('outbox.reviewOrders');
      const reviewed = review.orders.map((o) => ({
        id: o.id,
        updatedAt: o.updatedAt,
        total: o.quote!.total_amount!,
      }));
      expect(reviewed.map((o) => o.id)).toEqual([order.id]);
      const submitted = await t.call('outbox.sendOrders', { orders: reviewed });
      expect(submitted).toMatchObject({ sent: 1, failed: 0, remaining: 1 });
      expect(await stateOf(t, order.id)).toBe('sent');
      // Its delivery waits for the (tasking) item to complete (delivery-wait.spec in @eo/sync).
      await expectWaiting(t, delivery.id);
      expect(itemsOnService('Waits for me')).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('go automatically when the team turned on autoSendOrders', async () => {
    const t = startBackend();
    try {
      expect(await t.call('settings.update', { autoSendOrders: true })).toMatchObject({
        autoSendOrders: true,
      });
      const { order, delivery, auto } = await queueOfflineThenConnect(t, 'Sent for me');
      expect(auto).toMatchObject({ sent: 2, failed: 0, remaining: 1 });
      expect(await stateOf(t, order.id)).toBe('sent');
      await expectWaiting(t, delivery.id);
      expect(itemsOnService('Sent for me')).toBe(1);
    } finally {
      await t.close();
    }
  });
});
