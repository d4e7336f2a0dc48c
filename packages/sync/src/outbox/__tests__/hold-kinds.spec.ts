/** `holdKinds`: an automatic flush leaves paid creates (and what depends on them) queued. */
import type { EoClient } from '@eo/api-client';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { PAID_KINDS } from '../kinds';
import { createOutbox, type Outbox } from '../outbox';
import {
  aoiInput,
  orderInput,
  serviceOrders,
  startService,
  tempDatabase,
  testClient,
  type TestService,
} from './service';

let svc: TestService;
let client: EoClient;
let local: ReturnType<typeof tempDatabase>;
let outbox: Outbox;

beforeAll(async () => {
  svc = await startService();
  client = testClient(svc.url, svc.key);
});
afterAll(async () => svc.close());
beforeEach(() => {
  local = tempDatabase();
  outbox = createOutbox({ db: local.sqlite, client });
});
afterEach(() => local.remove());

it('held kinds and their dependents stay queued; a flush without the hold sends them', async () => {
  expect(PAID_KINDS).toEqual(['order']);
  const ordersBefore = (await serviceOrders(client)).length;
  const order = outbox.enqueue('order', orderInput('Held order'));
  const delivery = outbox.enqueue('delivery', {
    deliveries: [
      {
        order_item_ids: [`local:${order.id}#0`],
        cloud_info: { config: 's3-default', path: 'field/held' },
      },
    ],
  });
  const aoi = outbox.enqueue('aoi', await aoiInput(client, 'Free AOI'));

  const held = await outbox.flush({ holdKinds: PAID_KINDS });
  expect(held).toEqual({ sent: 1, failed: 0, blocked: 0, unconfirmed: 0, remaining: 2 });
  expect(outbox.get(aoi.id)?.state).toBe('sent');
  expect(outbox.get(order.id)).toMatchObject({ state: 'queued', attempts: 0 });
  expect(outbox.get(delivery.id)).toMatchObject({ state: 'queued', attempts: 0 });
  expect((await serviceOrders(client)).length).toBe(ordersBefore);

  // Held again on the next automatic flush; sent when a person submits.
  expect((await outbox.flush({ holdKinds: PAID_KINDS })).sent).toBe(0);
  const submitted = await outbox.flush({ ignoreBackoff: true });
  expect(submitted).toEqual({ sent: 2, failed: 0, blocked: 0, unconfirmed: 0, remaining: 0 });
  expect(outbox.get(delivery.id)?.state).toBe('sent');
  expect((await serviceOrders(client)).length).toBe(ordersBefore + 1);
});
