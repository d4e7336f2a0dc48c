/**
 * Orders this client sent, followed until they settle (issue 26, defect 1), against the real
 * reference service whose worker the test steps by hand: created UNPAID with a DRAFT item, the
 * payment in progress, then paid with the item completed and its task kept; a settled order is
 * not asked for again, an order a sync pulled is never followed, and a service without the
 * order read still moves the items.
 */
import type { EoClient } from '@eo/api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutbox } from '../../outbox/outbox';
import {
  orderInput,
  startService,
  tempDatabase,
  testClient,
  type TestService,
} from '../../outbox/__tests__/service';
import { makeOutboxMirror } from '../outbox-mirror';
import { refreshCreated } from '../refresh-created';
import { unfinishedOrders } from '../refresh-orders';
import { makeMirrorWriters } from '../writers';

let svc: TestService;
let client: EoClient;
beforeAll(async () => {
  svc = await startService();
  client = testClient(svc.url, svc.key);
});
afterAll(async () => svc.close());

function sendOrder(local: ReturnType<typeof tempDatabase>, name: string, via = client) {
  const outbox = createOutbox({
    db: local.sqlite,
    client: via,
    mirror: makeOutboxMirror(local.sqlite),
  });
  outbox.enqueue('order', orderInput(name));
  return outbox.flush();
}

const readOne = (local: ReturnType<typeof tempDatabase>, sql: string) =>
  JSON.parse(local.sqlite.prepare(sql).pluck().get() as string) as Record<string, unknown>;

describe('refreshCreated follows the orders this client sent', () => {
  it('from unpaid to paid, its items from draft to active, until settled', async () => {
    const local = tempDatabase();
    try {
      expect(await sendOrder(local, 'Followed order')).toMatchObject({ sent: 1, failed: 0 });
      const order = () => readOne(local, 'SELECT json FROM mirror_orders');
      const item = () => readOne(local, 'SELECT json FROM mirror_order_items');
      expect(order()).toMatchObject({ status: 'UNPAID' });
      expect(item()).toMatchObject({ status: 'DRAFT' });
      expect(unfinishedOrders(local.sqlite)).toHaveLength(1);

      // The service has not moved: read again, nothing stored.
      expect(await refreshCreated({ sqlite: local.sqlite, client })).toMatchObject({
        checked: 1,
        updated: 0,
        kinds: [],
      });

      // One step: the payment is in progress.
      svc.server.app.ctx.worker.runDue({ ignoreDueTime: true, limit: 1 });
      expect(await refreshCreated({ sqlite: local.sqlite, client })).toMatchObject({
        updated: 1,
        kinds: ['orders'],
      });
      expect(order()).toMatchObject({ status: 'PAYMENT_IN_PROGRESS' });

      // Paid: the item is active with its tasks (kept for the catalog's order links).
      svc.server.app.ctx.worker.runDue({ ignoreDueTime: true, limit: 1 });
      await refreshCreated({ sqlite: local.sqlite, client });
      expect(order()).toMatchObject({ status: 'PAID' });
      expect(item()).toMatchObject({ status: 'ACTIVE', payment_status: 'PAID' });
      const tasks = local.sqlite.prepare('SELECT count(*) FROM mirror_tasks').pluck().get();
      expect(tasks).toBeGreaterThan(0);
      expect(unfinishedOrders(local.sqlite)).toHaveLength(1);

      // To the end: completed, settled, not asked for again.
      svc.server.app.ctx.worker.drain();
      await refreshCreated({ sqlite: local.sqlite, client });
      expect(item()).toMatchObject({ status: 'COMPLETED' });
      expect(unfinishedOrders(local.sqlite)).toEqual([]);
      expect(await refreshCreated({ sqlite: local.sqlite, client })).toMatchObject({ checked: 0 });
    } finally {
      local.remove();
    }
  });

  it('never follows an order a sync pulled', async () => {
    const local = tempDatabase();
    try {
      makeMirrorWriters(local.sqlite).orders.write(
        [{ id: 'ord_pulled', status: 'UNPAID', order_items: [{ id: 'oi_1', status: 'DRAFT' }] }],
        'pass-1',
      );
      expect(unfinishedOrders(local.sqlite)).toEqual([]);
    } finally {
      local.remove();
    }
  });

  it('a service without the order read still moves the items', async () => {
    const local = tempDatabase();
    try {
      const withoutRead: EoClient = {
        ...client,
        extensions: { ...client.extensions, getOrder: async () => null },
      };
      await sendOrder(local, 'Items only', withoutRead);
      svc.server.app.ctx.worker.drain();
      expect(await refreshCreated({ sqlite: local.sqlite, client: withoutRead })).toMatchObject({
        updated: 1,
        kinds: ['orders'],
      });
      expect(readOne(local, 'SELECT json FROM mirror_order_items')).toMatchObject({
        status: 'COMPLETED',
      });
      // The stored order keeps what the create answered.
      expect(readOne(local, 'SELECT json FROM mirror_orders')).toMatchObject({ status: 'UNPAID' });
      expect(unfinishedOrders(local.sqlite)).toEqual([]);
    } finally {
      local.remove();
    }
  });
});
