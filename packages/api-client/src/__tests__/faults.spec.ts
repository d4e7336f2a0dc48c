/**
 * Faults between the client and the real service, injected by a loopback proxy: connection
 * resets, 503 bursts, slow responses past the timeout, bodies cut off mid-JSON, 429 with
 * Retry-After, cancellation mid-request and mid-backoff, and creates that must happen exactly
 * once however the link fails. Waits between attempts go through an injected recording sleep
 * (except where real waiting is the point), so the whole file runs in a few seconds.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../../test/fault-proxy';
import { indexBody, startService, type TestService } from '../../test/service';
import {
  createEoClient,
  EoAbortError,
  EoApiError,
  EoNetworkError,
  EoTimeoutError,
  type EoClientOptions,
  type RequestEvent,
  type ResponseEvent,
} from '../index';

let svc: TestService;
let proxy: FaultProxy;
beforeAll(async () => {
  svc = await startService();
  proxy = await startFaultProxy(svc.url);
});
afterAll(async () => {
  await proxy.close();
  await svc.close();
});
beforeEach(() => {
  proxy.plan();
  proxy.seen.length = 0;
});

function make(o: Partial<EoClientOptions> = {}) {
  const delays: number[] = [];
  const events: ResponseEvent[] = [];
  const requests: RequestEvent[] = [];
  const client = createEoClient({
    baseUrl: proxy.url,
    apiKey: svc.key,
    timeoutMs: 2_000,
    sleep: async (ms) => {
      delays.push(ms);
    },
    onRequest: (e) => requests.push(e),
    onResponse: (e) => events.push(e),
    ...o,
  });
  return { client, delays, events, requests };
}

/** Talks to the service directly, no proxy: to count what really exists. */
const direct = () => createEoClient({ baseUrl: svc.url, apiKey: svc.key });

async function catchError(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

async function countIndicesNamed(name: string): Promise<number> {
  const all = await direct().listIndices({ type: 'custom', limit: 1000 });
  return all.indices.filter((i) => i.name === name).length;
}

describe('reads through faults', () => {
  it('connection resets, then success', async () => {
    proxy.plan({ type: 'reset' }, { type: 'reset' });
    const { client, delays, events } = make();
    const res = await client.listIndices({ limit: 2 });
    expect(res.indices).toHaveLength(2);
    expect(events.map((e) => e.error ?? e.status)).toEqual(['network', 'network', 200]);
    expect(delays).toHaveLength(2);
    expect(proxy.seen).toHaveLength(3);
  });
  it('a burst of 503s, then success', async () => {
    const unavailable = {
      type: 'status' as const,
      status: 503,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ error: { code: 'unavailable', message: 'overloaded' } }),
    };
    proxy.plan(unavailable, unavailable, unavailable);
    const { client, events } = make();
    const res = await client.listIndices();
    expect(res.pagination.total).toBeGreaterThan(0);
    expect(events.map((e) => e.status)).toEqual([503, 503, 503, 200]);
  });
  it('503s past maxAttempts: the last EoApiError, with its code', async () => {
    proxy.plan(...Array.from({ length: 4 }, () => ({ type: 'status' as const, status: 503 })));
    const e = await catchError(make().client.listIndices());
    expect(e).toBeInstanceOf(EoApiError);
    expect(e).toMatchObject({ status: 503, attempts: 4, retryable: true });
  });
  it('a response slower than the timeout is abandoned and retried', async () => {
    // Timeouts generous enough for a loaded machine to answer the healthy attempt in time.
    proxy.plan({ type: 'delay', ms: 5_000 });
    const { client, events } = make({ timeoutMs: 1_000 });
    const started = Date.now();
    const res = await client.listIndices({ limit: 1 });
    expect(res.indices).toHaveLength(1);
    expect(events.map((e) => e.error ?? e.status)).toEqual(['timeout', 200]);
    expect(Date.now() - started).toBeLessThan(4_000);
  });
  it('always too slow: EoTimeoutError after every attempt', async () => {
    proxy.plan(...Array.from({ length: 2 }, () => ({ type: 'delay' as const, ms: 3_000 })));
    const e = await catchError(
      make({ timeoutMs: 150, retry: { maxAttempts: 2 } }).client.listIndices(),
    );
    expect(e).toBeInstanceOf(EoTimeoutError);
    expect(e).toMatchObject({ kind: 'timeout', timeoutMs: 150, attempts: 2 });
  });
  it('the per-call timeout overrides the client one', async () => {
    proxy.plan({ type: 'delay', ms: 3_000 });
    const e = await catchError(
      make({ retry: { maxAttempts: 1 } }).client.listIndices({}, { timeoutMs: 100 }),
    );
    expect(e).toMatchObject({ kind: 'timeout', timeoutMs: 100 });
  });
  it('a body cut off mid-JSON is a network error, retried', async () => {
    proxy.plan({ type: 'truncate' });
    const { client, events } = make();
    const res = await client.listIndices();
    expect(res.indices.length).toBeGreaterThan(0);
    expect(events.map((e) => e.error ?? e.status)).toEqual(['network', 200]);
  });
  it('cut off every time: EoNetworkError saying the body was cut off', async () => {
    proxy.plan({ type: 'truncate' });
    const e = await catchError(make({ retry: { maxAttempts: 1 } }).client.listIndices());
    expect(e).toBeInstanceOf(EoNetworkError);
    expect((e as Error).message).toContain('response body cut off');
  });
  it('searches (read-only POSTs) are retried like reads', async () => {
    // Catalog search may not be implemented by the service yet: only the retry matters here.
    proxy.plan({ type: 'reset' }, { type: 'status', status: 502 });
    const { client, events } = make();
    await client.searchCatalogs({ limit: 1 }).catch(() => undefined);
    expect(events.slice(0, 2).map((e) => e.error)).toEqual(['network', 'api']);
    expect(events.length).toBeGreaterThanOrEqual(3);
  });
});

describe('429 and Retry-After', () => {
  it('delta-seconds are honoured', async () => {
    proxy.plan({ type: 'status', status: 429, headers: { 'retry-after': '3' } });
    const { client, delays } = make();
    await client.listIndices();
    expect(delays).toEqual([3_000]);
  });
  it('an HTTP-date is honoured', async () => {
    const at = new Date(Date.now() + 5_000).toUTCString();
    proxy.plan({ type: 'status', status: 429, headers: { 'retry-after': at } });
    const { client, delays } = make();
    await client.listIndices();
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeGreaterThan(3_000);
    expect(delays[0]).toBeLessThanOrEqual(5_000);
  });
  it('is capped by maxRetryAfterMs', async () => {
    proxy.plan({ type: 'status', status: 429, headers: { 'retry-after': '3600' } });
    const { client, delays } = make({ retry: { maxRetryAfterMs: 20_000 } });
    await client.listIndices();
    expect(delays).toEqual([20_000]);
  });
  it('waitRetryAfter: false ends the call at once, its error carrying the Retry-After', async () => {
    proxy.plan({ type: 'status', status: 429, headers: { 'retry-after': '3' } });
    const { client, delays, events } = make();
    const e = await catchError(client.listIndices({}, { waitRetryAfter: false }));
    expect(e).toMatchObject({ kind: 'api', status: 429, retryAfterMs: 3_000 });
    expect(delays).toEqual([]);
    expect(events).toHaveLength(1);
  });
  it('without Retry-After: exponential backoff with full jitter', async () => {
    proxy.plan(...Array.from({ length: 3 }, () => ({ type: 'status' as const, status: 429 })));
    const { client, delays } = make({ random: () => 0.5, retry: { baseDelayMs: 1_000 } });
    await client.listIndices();
    expect(delays).toEqual([500, 1_000, 2_000]);
  });
});

describe('cancellation', () => {
  it('mid-request: EoAbortError at once, not retried', async () => {
    proxy.plan({ type: 'hang' });
    const ac = new AbortController();
    const { client, events } = make();
    const started = Date.now();
    setTimeout(() => ac.abort(), 100);
    const e = await catchError(client.listIndices({}, { signal: ac.signal }));
    expect(e).toBeInstanceOf(EoAbortError);
    expect(e).toMatchObject({ kind: 'abort', retryable: false, attempts: 1 });
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(events).toHaveLength(1);
    expect(proxy.seen).toHaveLength(1);
  });
  it('mid-backoff: the pending wait is cancelled (real sleep)', async () => {
    proxy.plan({ type: 'status', status: 503 });
    const ac = new AbortController();
    // The real sleep: a 30 s backoff that only cancellation can cut short.
    const { client } = make({
      sleep: undefined,
      random: () => 1,
      retry: { baseDelayMs: 30_000, maxDelayMs: 30_000 },
      onResponse: (e) => {
        if (e.retryInMs !== undefined) setTimeout(() => ac.abort(), 50);
      },
    });
    const started = Date.now();
    const e = await catchError(client.listIndices({}, { signal: ac.signal }));
    expect(e).toBeInstanceOf(EoAbortError);
    expect(e).toMatchObject({ attempts: 1 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(proxy.seen).toHaveLength(1);
  });
  it('mid-backoff with an injected sleep that ignores the signal', async () => {
    proxy.plan({ type: 'status', status: 503 });
    const ac = new AbortController();
    const { client } = make({
      sleep: () => new Promise((r) => setTimeout(r, 30_000).unref()),
      onResponse: (e) => {
        if (e.retryInMs !== undefined) setTimeout(() => ac.abort(), 20);
      },
    });
    const e = await catchError(client.listIndices({}, { signal: ac.signal }));
    expect(e).toBeInstanceOf(EoAbortError);
  });
  it('an already aborted signal sends nothing', async () => {
    const e = await catchError(make().client.listIndices({}, { signal: AbortSignal.abort() }));
    expect(e).toMatchObject({ kind: 'abort', attempts: 0 });
    expect(proxy.seen).toHaveLength(0);
  });
});

/** A client that has read once through the proxy: it knows the service honours the key. */
async function informed(o: Partial<EoClientOptions> = {}) {
  const made = make(o);
  expect(made.client.capabilities.idempotencyKey).toBe('unknown');
  await made.client.listIndices({ limit: 1 });
  expect(made.client.capabilities.idempotencyKey).toBe('honoured');
  made.events.length = 0;
  made.requests.length = 0;
  proxy.seen.length = 0;
  return made;
}

describe('creates through faults happen exactly once', () => {
  it('resets, a response lost after commit, a 503 and a cut-off body: one index', async () => {
    const name = 'faulty-create';
    const { client, requests, events } = await informed({ retry: { maxAttempts: 6 } });
    proxy.plan(
      { type: 'reset' }, // never reaches the service
      { type: 'lose' }, // the service commits; the response is lost
      { type: 'status', status: 503 },
      { type: 'truncate' }, // replayed by the service, cut off on the way back
    );
    const created = await client.createIndex(indexBody(name));
    expect(events.map((e) => e.error ?? e.status)).toEqual([
      'network',
      'network',
      'api',
      'network',
      201,
    ]);
    const keys = new Set(requests.map((r) => r.headers['idempotency-key']));
    expect(keys.size).toBe(1);
    expect(proxy.forwarded()).toBeGreaterThanOrEqual(3);
    expect(await countIndicesNamed(name)).toBe(1);
    const again = await direct().listIndices({ index_id: created.id });
    expect(again.indices[0]!.name).toBe(name);
  });
  it('a slow create that times out after the commit is replayed, not repeated', async () => {
    const name = 'slow-create';
    const { client, events } = await informed({ timeoutMs: 1_000 });
    proxy.plan({ type: 'lose' }, { type: 'delay', ms: 5_000 });
    await client.createIndex(indexBody(name));
    expect(events.map((e) => e.error ?? e.status)).toEqual(['network', 'timeout', 201]);
    expect(await countIndicesNamed(name)).toBe(1);
  });
  it("the caller's own key makes two logical calls one create", async () => {
    const name = 'outbox-create';
    proxy.plan({ type: 'lose' });
    const { client } = make({ retry: { maxAttempts: 1 } });
    const e = await catchError(client.createIndex(indexBody(name), { idempotencyKey: 'outbox-7' }));
    expect(e).toBeInstanceOf(EoNetworkError);
    // e.g. the app restarted and replays its outbox entry with the same key
    const created = await client.createIndex(indexBody(name), { idempotencyKey: 'outbox-7' });
    expect(created.name).toBe(name);
    expect(await countIndicesNamed(name)).toBe(1);
  });
  it('without a key (idempotencyKey: false) a lost response is not retried', async () => {
    const name = 'no-key-create';
    proxy.plan({ type: 'lose' });
    const { client } = make();
    const e = await catchError(client.createIndex(indexBody(name), { idempotencyKey: false }));
    expect(e).toBeInstanceOf(EoNetworkError);
    expect(proxy.seen).toHaveLength(1);
    expect(await countIndicesNamed(name)).toBe(1);
  });
  it('before the service said it honours the key, a create that may have reached it is not resent', async () => {
    const name = 'uninformed-create';
    proxy.plan({ type: 'lose' });
    const { client } = make();
    const e = await catchError(client.createIndex(indexBody(name)));
    expect(e).toMatchObject({ kind: 'network', attempts: 1 });
    expect(proxy.seen).toHaveLength(1);
    expect(await countIndicesNamed(name)).toBe(1);
    // A gateway's 503 page without the header teaches nothing: still one attempt.
    proxy.plan({ type: 'status', status: 503 });
    expect(await catchError(client.createIndex(indexBody(`${name} 2`)))).toMatchObject({
      status: 503,
      attempts: 1,
    });
    expect(client.capabilities.idempotencyKey).toBe('unknown');
  });
  it("the service's own answer to a create teaches it: the next attempt may follow", async () => {
    const name = 'taught-create';
    // The first answer is a 503 that carries the header (as our service's own 503s do): the
    // client learns from it and resends the create with the same key.
    proxy.plan({ type: 'status', status: 503, headers: { 'idempotency-key-support': 'honoured' } });
    const { client, events } = make();
    await client.createIndex(indexBody(name));
    expect(events.map((e) => e.error ?? e.status)).toEqual(['api', 201]);
    expect(await countIndicesNamed(name)).toBe(1);
  });
  it("idempotency: 'ignored' never resends a create, whatever the service says", async () => {
    const name = 'ignored-create';
    const { client } = make({ idempotency: 'ignored' });
    await client.listIndices({ limit: 1 });
    expect(client.capabilities.idempotencyKey).toBe('ignored');
    proxy.seen.length = 0;
    proxy.plan({ type: 'lose' });
    expect(await catchError(client.createIndex(indexBody(name)))).toMatchObject({ attempts: 1 });
    expect(await countIndicesNamed(name)).toBe(1);
  });
  it('a 400 from the service is not retried', async () => {
    const { client } = make();
    const e = await catchError(
      client.createIndex({ ...indexBody('bad'), satellite_id: 'sat-nope' }),
    );
    expect(e).toMatchObject({ status: 400, code: 'validation_failed', attempts: 1 });
    expect(proxy.seen).toHaveLength(1);
  });
});
