/**
 * An entry is validated at enqueue; the client does not check it again on the way out when it
 * would use the very same schema (our spec's profile), and still does when the service's
 * profile asks for more (`provider-v0` wants `usecase` on every order item).
 */
import { createEoClient } from '@eo/api-client';
import { OpenCreateOrderRequest, OutboxCreate } from '@eo/domain';
import { countSchemaRuns } from '@eo/domain/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkedAtEnqueue, OUTBOX_KINDS } from '../kinds';
import { createOutbox } from '../outbox';
import { orderInput, startService, tempDatabase, testClient, type TestService } from './service';

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => svc.close());
const databases: Array<ReturnType<typeof tempDatabase>> = [];
afterEach(() => {
  while (databases.length) databases.pop()!.remove();
});

/**
 * Queues one order with `enqueue` on a fresh outbox (`runs`: the order schema's runs so far),
 * then flushes: the schema ran once in all, and the order was created.
 */
async function sentWithOneSchemaRun(
  enqueue: (outbox: ReturnType<typeof createOutbox>, runs: () => number) => { id: string },
): Promise<void> {
  const local = tempDatabase();
  databases.push(local);
  const outbox = createOutbox({ db: local.sqlite, client: testClient(svc.url, svc.key) });
  const checks = countSchemaRuns(OpenCreateOrderRequest);
  try {
    const entry = enqueue(outbox, checks.count);
    expect(checks.count()).toBe(1);
    expect(await outbox.flush()).toMatchObject({ sent: 1, failed: 0 });
    expect(checks.count()).toBe(1);
    expect(outbox.get(entry.id)?.state).toBe('sent');
  } finally {
    checks.restore();
  }
}

describe('validated once on the client side', () => {
  it('knows which kinds the client checks with the enqueue schema', () => {
    const spec = OUTBOX_KINDS.filter((k) => checkedAtEnqueue('spec', k));
    expect(spec).toEqual(['order', 'aoi', 'index', 'delivery']);
    expect(checkedAtEnqueue('provider-v0', 'order')).toBe(false);
  });

  it('an order checked at enqueue is sent without a second check, and created', async () => {
    await sentWithOneSchemaRun((outbox, runs) => {
      const entry = outbox.enqueue('order', orderInput('checked once'));
      expect(runs()).toBe(1);
      return entry;
    });
  });

  it("a create parsed at the caller's boundary is queued without another check, and created", async () => {
    await sentWithOneSchemaRun((outbox, runs) => {
      const create = OutboxCreate.parse({
        kind: 'order',
        input: orderInput('parsed by the caller'),
      });
      expect(runs()).toBe(1);
      return outbox.enqueueChecked(create);
    });
  });

  it('a checked create still passes the checks no schema makes (a local reference to nothing)', () => {
    const local = tempDatabase();
    databases.push(local);
    const outbox = createOutbox({ db: local.sqlite });
    const create = OutboxCreate.parse({
      kind: 'delivery',
      input: {
        deliveries: [
          {
            order_item_ids: ['local:00000000-0000-4000-8000-000000000000#0'],
            cloud_info: { config: 's3-default', path: 'field/after-order' },
          },
        ],
      },
    });
    expect(() => outbox.enqueueChecked(create)).toThrow(/Invalid delivery/);
    expect(outbox.list()).toEqual([]);
  });

  it("the provider's own rules are still checked by the client before anything is sent", async () => {
    const local = tempDatabase();
    databases.push(local);
    const sent: string[] = [];
    const client = createEoClient({
      baseUrl: svc.url,
      apiKey: svc.key,
      dialect: 'provider-v0',
      retry: { maxAttempts: 1 },
      onRequest: (e) => sent.push(e.endpoint),
    });
    const outbox = createOutbox({ db: local.sqlite, client, idempotency: 'honoured' });
    // Valid for the open schema of the outbox, but without the `usecase` the provider needs.
    const entry = outbox.enqueue('order', orderInput('no usecase'));
    expect(await outbox.flush()).toMatchObject({ sent: 0, failed: 1 });
    const failed = outbox.get(entry.id)!;
    expect(failed.lastError?.kind).toBe('validation');
    expect(failed.lastError?.details?.map((d) => d.path)).toContain('order_items.0.usecase');
    expect(sent).not.toContain('createOrder');
  });
});
