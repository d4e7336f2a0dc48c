/**
 * Flushing through a faulty network: resets, 503 bursts and responses lost after the service
 * committed, plus a crash (the outbox database closed while an entry is `sending`). Whatever
 * happens, every queued order exists exactly once on the service.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createEoClient } from '@eo/api-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMirrorDatabase, type MirrorDatabase } from '../../db/open';
import { createOutbox } from '../outbox';
import { startFaultProxy, type Fault } from '../../__tests__/fault-proxy';
import {
  aoiInput,
  indexInput,
  orderInput,
  serviceOrders,
  startService,
  tempDatabase,
  testClient,
  type TestService,
} from './service';

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => svc.close());

/** Deterministic [0, 1) sequence (a small LCG), so a failing run can be replayed. */
function seeded(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

async function flushUntilSettled(outbox: ReturnType<typeof createOutbox>, max = 40) {
  let last;
  for (let i = 0; i < max; i++) {
    last = await outbox.flush();
    if (last.remaining === 0) return last;
  }
  throw new Error(`not settled after ${max} flushes: ${JSON.stringify(last)}`);
}

describe('flush through faults', () => {
  it('200 orders through resets, 503 bursts, lost responses and a crash: exactly 200 on the service', async () => {
    const rand = seeded(42);
    let orderPosts = 0;
    let crash: (() => void) | undefined;
    let burst = 0;
    const proxy = await startFaultProxy(svc.url, (req): Fault => {
      if (req.method !== 'POST') return 'pass';
      orderPosts++;
      if (orderPosts === 120 && crash) {
        // The process dies while this request is in flight: the service commits it, the
        // outbox never records the answer.
        crash();
        return 'pass';
      }
      if (burst > 0) {
        burst--;
        return { status: 503 };
      }
      const r = rand();
      if (r < 0.06) return 'reset';
      if (r < 0.1) {
        burst = 4; // longer than the client's own retries: the entry waits for the next flush
        return { status: 503 };
      }
      if (r < 0.18) return 'lose';
      return 'pass';
    });
    const local = tempDatabase();
    try {
      const client = testClient(proxy.url, svc.key);
      const direct = testClient(svc.url, svc.key);
      const outbox = createOutbox({ db: local.sqlite, client, retryBaseMs: 0 });
      const names = Array.from({ length: 200 }, (_, i) => `fault-run ${i}`);
      for (const name of names) outbox.enqueue('order', orderInput(name));
      crash = () => local.sqlite.close();

      await expect(outbox.flush()).rejects.toThrow(/not open/);
      crash = undefined;

      const reopened = openMirrorDatabase(local.file);
      const stuck = reopened.sqlite
        .prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM outbox WHERE state = 'sending'")
        .get();
      expect(stuck?.n).toBe(1);
      const recovered = createOutbox({ db: reopened.sqlite, client, retryBaseMs: 0 });
      const result = await flushUntilSettled(recovered);
      expect(result.failed).toBe(0);
      expect(recovered.counts()).toMatchObject({ sent: 200, queued: 0, sending: 0, failed: 0 });

      const onService = (await serviceOrders(direct)).filter((o) => o.name.startsWith('fault-run'));
      expect(onService).toHaveLength(200);
      expect(new Set(onService.map((o) => o.name))).toEqual(new Set(names));
      expect(new Set(recovered.list().map((e) => e.remoteId))).toEqual(
        new Set(onService.map((o) => o.id)),
      );
      // The faults did happen.
      expect(proxy.counts.lose).toBeGreaterThan(5);
      expect(proxy.counts.reset).toBeGreaterThan(5);
      expect(proxy.counts.status).toBeGreaterThan(5);
      expect(recovered.list().some((e) => e.attempts > 1)).toBe(true);
      reopened.close();
    } finally {
      local.remove();
      await proxy.close();
    }
  });

  it('transient failures leave the entry queued with a next attempt time and the error', async () => {
    const proxy = await startFaultProxy(svc.url, (req) =>
      req.method === 'POST' ? { status: 503 } : 'pass',
    );
    const local = tempDatabase();
    try {
      let now = 1_000_000;
      const outbox = createOutbox({
        db: local.sqlite,
        client: testClient(proxy.url, svc.key),
        now: () => now,
        random: () => 1,
        retryBaseMs: 1_000,
      });
      const entry = outbox.enqueue('order', orderInput('unavailable'));
      expect(await outbox.flush()).toEqual({
        sent: 0,
        failed: 0,
        blocked: 0,
        unconfirmed: 0,
        remaining: 1,
      });
      const queued = outbox.get(entry.id)!;
      expect(queued).toMatchObject({ state: 'queued', attempts: 1 });
      expect(queued.lastError).toMatchObject({ kind: 'api', status: 503 });
      expect(queued.nextAttemptAt).toBe((now + 1_000) * 1000);
      // Not due yet: the next flush leaves it alone.
      await outbox.flush();
      expect(outbox.get(entry.id)?.attempts).toBe(1);
      now += 1_000;
      await outbox.flush();
      expect(outbox.get(entry.id)).toMatchObject({
        attempts: 2,
        nextAttemptAt: (now + 2_000) * 1000,
      });
      // Already attempted: it may be on the service, so it cannot be edited or cancelled.
      expect(() => outbox.edit(entry.id, orderInput('changed'))).toThrow(/flush it first/);
      expect(() => outbox.cancel(entry.id)).toThrow(/flush it first/);
      // retry() makes it due at once.
      outbox.retry(entry.id);
      expect(outbox.get(entry.id)?.nextAttemptAt).toBeNull();
    } finally {
      local.remove();
      await proxy.close();
    }
  });

  it('ignoreBackoff sends entries whose next attempt is not due yet (a person asked now)', async () => {
    let down = true;
    const proxy = await startFaultProxy(svc.url, (req) =>
      req.method === 'POST' && down ? { status: 503 } : 'pass',
    );
    const local = tempDatabase();
    try {
      const now = 2_000_000;
      const outbox = createOutbox({
        db: local.sqlite,
        client: testClient(proxy.url, svc.key),
        now: () => now,
        random: () => 1,
        retryBaseMs: 60_000,
      });
      const entry = outbox.enqueue('order', orderInput('submit now'));
      await outbox.flush();
      expect(outbox.get(entry.id)).toMatchObject({
        state: 'queued',
        attempts: 1,
        nextAttemptAt: (now + 60_000) * 1000,
      });
      // The default (auto-flush) waits for the backoff...
      await outbox.flush();
      expect(outbox.get(entry.id)?.attempts).toBe(1);
      // ...a flush that ignores it sends at once, and a failure schedules the next attempt.
      expect(await outbox.flush({ ignoreBackoff: true })).toMatchObject({ sent: 0, remaining: 1 });
      expect(outbox.get(entry.id)).toMatchObject({
        attempts: 2,
        nextAttemptAt: (now + 120_000) * 1000,
      });
      down = false;
      expect(await outbox.flush({ ignoreBackoff: true })).toEqual({
        sent: 1,
        failed: 0,
        blocked: 0,
        unconfirmed: 0,
        remaining: 0,
      });
      expect(outbox.get(entry.id)).toMatchObject({ state: 'sent', attempts: 3 });
    } finally {
      local.remove();
      await proxy.close();
    }
  });

  it("a 429's Retry-After sets the next attempt when it is later than the backoff", async () => {
    const proxy = await startFaultProxy(svc.url, (req) =>
      req.method === 'POST' ? { status: 429, headers: { 'retry-after': '30' } } : 'pass',
    );
    const local = tempDatabase();
    try {
      const now = 5_000_000;
      const outbox = createOutbox({
        db: local.sqlite,
        // One attempt per call: the client does not wait out the Retry-After itself.
        client: createEoClient({ baseUrl: proxy.url, apiKey: svc.key, retry: { maxAttempts: 1 } }),
        now: () => now,
        random: () => 1,
        retryBaseMs: 1_000,
      });
      const entry = outbox.enqueue('order', orderInput('rate limited'));
      await outbox.flush();
      expect(outbox.get(entry.id)).toMatchObject({
        state: 'queued',
        nextAttemptAt: (now + 30_000) * 1000,
        lastError: { status: 429 },
      });
    } finally {
      local.remove();
      await proxy.close();
    }
  });

  it('a 429 holds its own kind until the Retry-After; the other kinds go on in the same flush', async () => {
    let orderPosts = 0;
    const proxy = await startFaultProxy(svc.url, (req) => {
      if (req.method !== 'POST' || !req.url.startsWith('/v0/orders')) return 'pass';
      orderPosts++;
      return { status: 429, headers: { 'retry-after': '30' } };
    });
    const local = tempDatabase();
    try {
      const now = 5_000_000;
      const outbox = createOutbox({
        db: local.sqlite,
        // The client's default retries: it would wait out each Retry-After within the call.
        client: testClient(proxy.url, svc.key),
        now: () => now,
        random: () => 1,
        retryBaseMs: 1_000,
      });
      const orders = [1, 2, 3].map((i) => outbox.enqueue('order', orderInput(`limited ${i}`)));
      const index = outbox.enqueue('index', indexInput('not limited'));
      const aoi = outbox.enqueue(
        'aoi',
        await aoiInput(testClient(svc.url, svc.key), 'not limited either'),
      );
      const result = await outbox.flush();
      expect(result).toMatchObject({ sent: 2, failed: 0, remaining: 3 });
      // One request for the limited kind, answered at once: not waited for within the call.
      expect(orderPosts).toBe(1);
      expect(outbox.get(orders[0]!.id)).toMatchObject({
        state: 'queued',
        attempts: 1,
        nextAttemptAt: (now + 30_000) * 1000,
        lastError: { status: 429 },
      });
      for (const o of orders.slice(1))
        expect(outbox.get(o.id)).toMatchObject({ state: 'queued', attempts: 0 });
      for (const e of [index, aoi]) expect(outbox.get(e.id)!.state, e.kind).toBe('sent');
    } finally {
      local.remove();
      await proxy.close();
    }
  });

  it("a 429's hold outlasts its flush: later flushes, and the outbox reopened, wait out the Retry-After", async () => {
    let limited = true;
    let orderPosts = 0;
    const proxy = await startFaultProxy(svc.url, (req) => {
      if (req.method !== 'POST' || !req.url.startsWith('/v0/orders')) return 'pass';
      orderPosts++;
      return limited ? { status: 429, headers: { 'retry-after': '30' } } : 'pass';
    });
    const local = tempDatabase();
    const file = path.join(local.dir, 'local.sqlite');
    let now = 5_000_000;
    const open = (db: MirrorDatabase) =>
      createOutbox({
        db: db.sqlite,
        client: createEoClient({ baseUrl: proxy.url, apiKey: svc.key, retry: { maxAttempts: 1 } }),
        now: () => now,
        random: () => 1,
        retryBaseMs: 1_000,
      });
    let reopened: MirrorDatabase | undefined;
    try {
      const outbox = open(local);
      const first = outbox.enqueue('order', orderInput('held 1'));
      outbox.enqueue('order', orderInput('held 2'));
      expect(await outbox.flush()).toMatchObject({ sent: 0, remaining: 2 });
      expect(orderPosts).toBe(1);
      expect(outbox.get(first.id)!.nextAttemptAt).toBe((5_000_000 + 30_000) * 1000);

      // A new flush 10 s later, with a new order queued meanwhile: none is asked for.
      now += 10_000;
      outbox.enqueue('order', orderInput('held 3'));
      expect(await outbox.flush()).toMatchObject({ sent: 0, remaining: 3 });
      expect(orderPosts).toBe(1);

      // The app restarted 20 s in: the hold is read from the stored entries.
      local.close();
      reopened = openMirrorDatabase(file);
      const again = open(reopened);
      now += 10_000;
      expect(await again.flush()).toMatchObject({ sent: 0, remaining: 3 });
      expect(orderPosts).toBe(1);

      // Past the Retry-After the service takes them: each once.
      now += 10_001;
      limited = false;
      expect(await again.flush()).toMatchObject({ sent: 3, remaining: 0 });
      expect(orderPosts).toBe(4);
    } finally {
      reopened?.close();
      fs.rmSync(local.dir, { recursive: true, force: true });
      await proxy.close();
    }
  });

  it('a service that never says it honours Idempotency-Key: a lost order is found via GET /v0/orders, not resent', async () => {
    let lost = 0;
    const proxy = await startFaultProxy(
      svc.url,
      (req) => (req.method === 'POST' && lost++ < 2 ? 'lose' : 'pass'),
      { stripIdempotencyKey: true },
    );
    const local = tempDatabase();
    try {
      const outbox = createOutbox({
        db: local.sqlite,
        client: testClient(proxy.url, svc.key),
        retryBaseMs: 0,
      });
      const a = outbox.enqueue('order', orderInput('keyless A'));
      const b = outbox.enqueue('order', orderInput('keyless B'));
      // Each lost answer is looked for at once, and found.
      expect(await outbox.flush()).toMatchObject({ sent: 2, unconfirmed: 0, remaining: 0 });
      const onService = (await serviceOrders(testClient(svc.url, svc.key))).filter((o) =>
        o.name.startsWith('keyless'),
      );
      expect(onService.map((o) => o.name).sort()).toEqual(['keyless A', 'keyless B']);
      expect(outbox.get(a.id)?.remoteId).toBe(onService.find((o) => o.name === 'keyless A')?.id);
      expect(outbox.get(b.id)?.remoteId).toBe(onService.find((o) => o.name === 'keyless B')?.id);
    } finally {
      local.remove();
      await proxy.close();
    }
  });

  it('a service that never says it honours Idempotency-Key: a lost AOI and a lost index are found, not resent', async () => {
    let lost = 0;
    const proxy = await startFaultProxy(
      svc.url,
      (req) => (req.method === 'POST' && lost++ < 2 ? 'lose' : 'pass'),
      { stripIdempotencyKey: true },
    );
    const local = tempDatabase();
    const direct = testClient(svc.url, svc.key);
    try {
      const outbox = createOutbox({
        db: local.sqlite,
        client: testClient(proxy.url, svc.key),
        retryBaseMs: 0,
      });
      const aoi = outbox.enqueue('aoi', await aoiInput(direct, 'Keyless AOI'));
      const index = outbox.enqueue('index', indexInput('Keyless index'));
      // Each lost answer is looked for at once, and found.
      expect(await outbox.flush()).toMatchObject({ sent: 2, unconfirmed: 0, remaining: 0 });
      const aois = (await direct.listAois({ aoi_name: 'Keyless AOI' })).aois;
      expect(aois.map((a) => a.aoi_id)).toEqual([outbox.get(aoi.id)?.remoteId]);
      const indices = (await direct.listIndices({ type: 'custom', limit: 1000 })).indices.filter(
        (i) => i.name === 'Keyless index',
      );
      expect(indices.map((i) => i.id)).toEqual([outbox.get(index.id)?.remoteId]);
    } finally {
      local.remove();
      await proxy.close();
    }
  });
});
