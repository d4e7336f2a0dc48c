/**
 * `409 a request with this key is still being processed`: what many services answer to a retry
 * that arrives while the first attempt still runs. Through the misbehaving proxy in front of the
 * reference service: each create's first attempt loses its connection but is held, the client's
 * retry (same key: the service honours it) gets the 409 with a Retry-After, and only then does
 * the first attempt reach the service, which creates the resource. The outbox must keep such an
 * entry queued (not failed, its dependents not blocked), wait at least the Retry-After, and
 * settle it later exactly once: the resend with the same key gets the service's replay.
 */
import { createEoClient } from '@eo/api-client';
import { jsonAnswer, startMisbehavingProxy, type MisbehavingProxy } from '@eo/bench-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutbox } from '../outbox';
import {
  indexInput,
  orderInput,
  serviceOrders,
  startService,
  tempDatabase,
  type TestService,
} from './service';

let svc: TestService;
let proxy: MisbehavingProxy;
beforeAll(async () => {
  svc = await startService();
  proxy = await startMisbehavingProxy(svc.url);
});
afterAll(async () => {
  await proxy.close();
  await svc.close();
});

const RETRY_AFTER_S = 30;

/**
 * The first attempt of each index, order and job create (by its Idempotency-Key) is cut and
 * held; the next attempt
 * with that key gets the 409; then the first reaches the service. `created` settles when every
 * held attempt has been answered by the service.
 */
function firstAttemptStillRunning() {
  const held = new Map<string, { answered: () => void; done: Promise<void> }>();
  const told = new Set<string>();
  const stop = proxy.use(
    'still being processed',
    (r) =>
      r.method === 'POST' &&
      /^\/v0\/(indices|orders|workflows\/[^/]+\/jobs)$/.test(r.path) &&
      typeof r.headers['idempotency-key'] === 'string',
    async (x) => {
      const key = x.request.headers['idempotency-key'] as string;
      const first = held.get(key);
      if (first === undefined) {
        let answered!: () => void;
        const retried = new Promise<void>((r) => (answered = r));
        let done!: () => void;
        held.set(key, { answered, done: new Promise<void>((r) => (done = r)) });
        x.cut();
        await retried;
        await x.forward();
        done();
        return 'drop' as const;
      }
      if (!told.has(key)) {
        told.add(key);
        first.answered();
        return jsonAnswer(
          409,
          {
            error: {
              code: 'idempotency_in_progress',
              message: 'a request with this key is still being processed',
            },
          },
          { 'retry-after': String(RETRY_AFTER_S) },
        );
      }
      return undefined;
    },
  );
  return { stop, created: () => Promise.all([...held.values()].map((h) => h.done)) };
}

describe('409: a request with this key is still being processed', () => {
  it('the entry stays queued until its Retry-After, then is settled once; its dependents wait', async () => {
    const local = tempDatabase();
    let now = Date.parse('2030-01-01T00:00:00Z');
    const client = createEoClient({
      baseUrl: proxy.url,
      apiKey: svc.key,
      timeoutMs: 5_000,
      retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
    });
    // The client learns the service honours the key (it says so on every answer).
    await client.listIndices({ limit: 1 });
    expect(client.capabilities.idempotencyKey).toBe('honoured');
    const jobsBefore = svc.server.app.ctx.sqlite.prepare('SELECT count(*) FROM jobs').pluck().get();
    const ordersBefore = (await serviceOrders(client)).length;
    const running = firstAttemptStillRunning();
    try {
      const outbox = createOutbox({ db: local.sqlite, client, now: () => now });
      const index = outbox.enqueue('index', indexInput('Still processing index'));
      const order = outbox.enqueue('order', orderInput('Still processing order'));
      const job = outbox.enqueue('job', {
        workflow_id: 'wf-ndvi-timeseries',
        project_id: 'prj-demo-crops',
      });
      const delivery = outbox.enqueue('delivery', {
        deliveries: [
          {
            order_item_ids: [`local:${order.id}#0`],
            cloud_info: { config: 's3-default', path: 'field/in-progress' },
          },
        ],
      });

      const first = await outbox.flush();
      expect(first).toMatchObject({ sent: 0, failed: 0, blocked: 0, unconfirmed: 0, remaining: 4 });
      for (const e of [index, order, job]) {
        const entry = outbox.get(e.id)!;
        expect(entry.state, e.kind).toBe('queued');
        expect(entry.lastError?.message, e.kind).toMatch(/still being processed/);
        // Not before the service's Retry-After.
        expect(entry.nextAttemptAt, e.kind).toBeGreaterThanOrEqual(
          (now + RETRY_AFTER_S * 1000) * 1000,
        );
      }
      expect(outbox.get(delivery.id)!.state).toBe('queued');

      // The first attempts reach the service meanwhile. Before the Retry-After nothing is sent.
      await running.created();
      expect(await outbox.flush()).toMatchObject({ sent: 0, remaining: 4 });
      now += (RETRY_AFTER_S + 1) * 1000;
      const second = await outbox.flush();
      expect(second).toMatchObject({
        sent: 4,
        failed: 0,
        blocked: 0,
        unconfirmed: 0,
        remaining: 0,
      });

      // Exactly once each on the service, and the outbox holds the service's ids.
      const orders = (await serviceOrders(client)).filter(
        (o) => o.name === 'Still processing order',
      );
      expect(orders.map((o) => o.id)).toEqual([outbox.get(order.id)!.remoteId]);
      expect((await serviceOrders(client)).length).toBe(ordersBefore + 1);
      const indices = await client.listIndices({ type: 'custom', limit: 100 });
      expect(
        indices.indices.filter((i) => i.name === 'Still processing index').map((i) => i.id),
      ).toEqual([outbox.get(index.id)!.remoteId]);
      const jobs = svc.server.app.ctx.sqlite.prepare('SELECT id FROM jobs').pluck().all();
      expect(jobs.length).toBe((jobsBefore as number) + 1);
      expect(jobs).toContain(outbox.get(job.id)!.remoteId);
    } finally {
      running.stop();
      local.remove();
    }
  });
});
