/** Connectivity check and auto-flush against the real service, behind a switchable proxy. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkConnectivity } from '../connectivity';
import { watchConnectivity } from '../connectivity-watcher';
import { createOutbox } from '../outbox/outbox';
import { startFaultProxy } from './fault-proxy';
import {
  orderInput,
  serviceOrders,
  startService,
  tempDatabase,
  testClient,
  type TestService,
} from '../outbox/__tests__/service';

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => svc.close());

describe('checkConnectivity', () => {
  it('online with a good key, unauthorized with a bad one, offline when nothing listens', async () => {
    expect(await checkConnectivity(testClient(svc.url, svc.key))).toEqual({ status: 'online' });
    const bad = await checkConnectivity(testClient(svc.url, 'not-a-key'));
    expect(bad.status).toBe('unauthorized');
    const proxy = await startFaultProxy(svc.url, () => 'pass');
    const url = proxy.url;
    await proxy.close(); // the port is now closed: connection refused
    expect((await checkConnectivity(testClient(url, svc.key), { timeoutMs: 2_000 })).status).toBe(
      'offline',
    );
  });
  it('error for a server failure (5xx)', async () => {
    const proxy = await startFaultProxy(svc.url, () => ({ status: 500 }));
    try {
      expect((await checkConnectivity(testClient(proxy.url, svc.key))).status).toBe('error');
    } finally {
      await proxy.close();
    }
  });

  it('reachable means the service answers /ping: asked first, then the key is checked', async () => {
    const asked: string[] = [];
    const proxy = await startFaultProxy(svc.url, (req) => {
      asked.push(`${req.method} ${req.url}`);
      return 'pass';
    });
    try {
      expect(await checkConnectivity(testClient(proxy.url, svc.key))).toEqual({
        status: 'online',
      });
      expect(asked).toEqual(['GET /ping', 'GET /v0/indices?limit=1']);
    } finally {
      await proxy.close();
    }
  });

  it('a ping cut off or answered by a gateway error page: not reachable, nothing more is asked', async () => {
    const asked: string[] = [];
    for (const [fault, status] of [
      ['reset', 'offline'],
      [{ status: 502 }, 'error'],
    ] as const) {
      asked.length = 0;
      const proxy = await startFaultProxy(svc.url, (req) => {
        asked.push(req.url);
        return req.url === '/ping' ? fault : 'pass';
      });
      try {
        const client = testClient(proxy.url, svc.key);
        const check = await checkConnectivity(client, { timeoutMs: 4_000 });
        expect(check.status, JSON.stringify(fault)).toBe(status);
        expect(
          asked.every((u) => u === '/ping'),
          asked.join(' '),
        ).toBe(true);
      } finally {
        await proxy.close();
      }
    }
  });

  it('a service without /ping (404) is judged by the authenticated read alone', async () => {
    const asked: string[] = [];
    const proxy = await startFaultProxy(svc.url, (req) => {
      asked.push(req.url);
      return req.url === '/ping' ? { status: 404 } : 'pass';
    });
    try {
      expect((await checkConnectivity(testClient(proxy.url, svc.key))).status).toBe('online');
      expect((await checkConnectivity(testClient(proxy.url, 'not-a-key'))).status).toBe(
        'unauthorized',
      );
      expect(asked).toEqual(['/ping', '/v0/indices?limit=1', '/ping', '/v0/indices?limit=1']);
    } finally {
      await proxy.close();
    }
  });
});

describe('watchConnectivity', () => {
  it('flushes the outbox once the service is reachable again; stop() ends it', async () => {
    let reachable = false;
    const proxy = await startFaultProxy(svc.url, () => (reachable ? 'pass' : 'reset'));
    const local = tempDatabase();
    const client = testClient(proxy.url, svc.key);
    const outbox = createOutbox({ db: local.sqlite, client });
    const entry = outbox.enqueue('order', orderInput('auto-flushed'));
    const statuses: string[] = [];
    const watcher = watchConnectivity({
      client,
      outbox,
      intervalMs: 10,
      onStatus: (c) => statuses.push(c.status),
    });
    try {
      await vi.waitFor(() => expect(statuses).toContain('offline'), { timeout: 10_000 });
      expect(outbox.get(entry.id)?.state).toBe('queued');
      reachable = true;
      await vi.waitFor(() => expect(outbox.get(entry.id)?.state).toBe('sent'), { timeout: 10_000 });
      expect(watcher.last?.status).toBe('online');
    } finally {
      watcher.stop();
      await proxy.close();
      local.remove();
    }
    const checks = statuses.length;
    await new Promise((r) => setTimeout(r, 50));
    expect(statuses.length).toBe(checks);
    const names = (await serviceOrders(testClient(svc.url, svc.key))).map((o) => o.name);
    expect(names.filter((n) => n === 'auto-flushed')).toHaveLength(1);
  });

  it('idle() waits for the check in flight and the flush it starts (the service came back meanwhile)', async () => {
    // The first attempt is cut; the service is back for the client's retry of the same check.
    let first = true;
    const proxy = await startFaultProxy(svc.url, () => {
      if (!first) return 'pass';
      first = false;
      return 'reset';
    });
    const local = tempDatabase();
    const client = testClient(proxy.url, svc.key);
    const outbox = createOutbox({ db: local.sqlite, client });
    const entry = outbox.enqueue('order', orderInput('flushed-by-a-late-check'));
    // One check only: the next would come after the test.
    const watcher = watchConnectivity({ client, outbox, intervalMs: 600_000, timeoutMs: 10_000 });
    try {
      // The watcher's first check starts on a 0 ms timer, which fires before this one.
      await new Promise((r) => setTimeout(r, 0));
      await watcher.idle();
      expect(proxy.counts.reset).toBe(1);
      expect(watcher.last?.status).toBe('online');
      expect(outbox.get(entry.id)?.state).toBe('sent');
    } finally {
      watcher.stop();
      await proxy.close();
      local.remove();
    }
  });
});
