/**
 * Error bodies of every shape, which statuses are retried, key redaction everywhere, hooks and
 * the concurrency limit. Served by a recording HTTP server on 127.0.0.1.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { canned } from '../../test/fixtures';
import { closedPort, startHttpServer, type TestHttpServer } from '../../test/http-server';
import {
  createEoClient,
  EoAbortError,
  EoApiError,
  EoNetworkError,
  type EoClientOptions,
  type RequestEvent,
  type ResponseEvent,
} from '../index';

const KEY = 'eok_SECRET-key-0123456789';
let srv: TestHttpServer;
beforeAll(async () => {
  srv = await startHttpServer();
});
afterAll(async () => srv.close());
beforeEach(() => {
  srv.requests.length = 0;
});

function make(o: Partial<EoClientOptions> = {}) {
  const delays: number[] = [];
  const client = createEoClient({
    baseUrl: srv.url,
    apiKey: KEY,
    sleep: async (ms) => {
      delays.push(ms);
    },
    ...o,
  });
  return { client, delays };
}

async function catchError(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

describe('error bodies', () => {
  it('our shape: code, message and details', async () => {
    srv.setHandler(() => ({
      status: 404,
      json: { error: { code: 'not_found', message: 'AOI "a" was not found' } },
    }));
    const e = (await catchError(make().client.listAoiAssets('a'))) as EoApiError;
    expect(e).toBeInstanceOf(EoApiError);
    expect(e).toMatchObject({ status: 404, code: 'not_found', retryable: false, attempts: 1 });
    expect(e.message).toBe(
      'GET /v0/aois/a/assets failed with 404 not_found: AOI "a" was not found',
    );
    expect(e.endpoint).toBe('listAoiAssets');
  });
  it('foreign shapes: { detail } and { message, code }', async () => {
    srv.setHandler(() => ({ status: 403, json: { detail: 'Not enough privileges' } }));
    const a = (await catchError(make().client.listOrders())) as EoApiError;
    expect(a.message).toContain('Not enough privileges');
    expect(a.code).toBeUndefined();
    srv.setHandler(() => ({ status: 422, json: { message: 'bad geometry', code: 'E_GEOM' } }));
    const b = (await catchError(make().client.listOrders())) as EoApiError;
    expect(b).toMatchObject({ code: 'E_GEOM', body: { message: 'bad geometry', code: 'E_GEOM' } });
  });
  it('a non-JSON error body (a proxy page) and an empty one', async () => {
    srv.setHandler(() => ({
      status: 502,
      text: 'Bad Gateway from the edge',
      headers: { 'content-type': 'text/plain' },
    }));
    const a = (await catchError(
      make({ retry: { maxAttempts: 1 } }).client.listOrders(),
    )) as EoApiError;
    expect(a).toMatchObject({ status: 502, retryable: true, body: 'Bad Gateway from the edge' });
    expect(a.message).toContain('Bad Gateway from the edge');
    srv.setHandler(() => ({ status: 500, text: '' }));
    const b = (await catchError(make().client.listOrders())) as EoApiError;
    expect(b).toMatchObject({ status: 500, retryable: false, body: undefined, code: undefined });
    expect(b.message).toBe('GET /v0/orders failed with 500: Internal Server Error');
  });
});

describe('which statuses are retried', () => {
  for (const status of [400, 401, 403, 404, 409, 413, 422, 500]) {
    it(`${status} is never retried`, async () => {
      srv.setHandler(() => ({ status, json: { error: { code: 'x', message: 'no' } } }));
      const { client, delays } = make();
      const e = (await catchError(client.listOrders())) as EoApiError;
      expect(e.status).toBe(status);
      expect(srv.requests).toHaveLength(1);
      expect(delays).toEqual([]);
    });
  }
  for (const status of [408, 429, 502, 503, 504]) {
    it(`${status} is retried with backoff up to maxAttempts`, async () => {
      srv.setHandler(() => ({ status, text: '' }));
      const { client, delays } = make({ random: () => 1, retry: { baseDelayMs: 100 } });
      const e = (await catchError(client.listOrders())) as EoApiError;
      expect(e).toMatchObject({ status, retryable: true, attempts: 4 });
      expect(srv.requests).toHaveLength(4);
      expect(delays).toEqual([100, 200, 400]);
    });
  }
  it('a create without an Idempotency-Key is never retried', async () => {
    srv.setHandler(() => ({ status: 503, text: '' }));
    const { client } = make();
    await catchError(client.createJob('wf', { project_id: 'p' }, { idempotencyKey: false }));
    expect(srv.requests).toHaveLength(1);
  });
  it('a create with a key is retried with the same key on every attempt, once the service says it honours it', async () => {
    let n = 0;
    const says = { 'idempotency-key-support': 'honoured' };
    srv.setHandler(() =>
      ++n < 3
        ? { status: 503, text: '', headers: says }
        : { status: 201, json: canned.createJob(), headers: says },
    );
    const { client } = make();
    const job = await client.createJob('wf', { project_id: 'p' });
    expect(job.id).toBe('job-1');
    const keys = srv.requests.map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(client.capabilities.idempotencyKey).toBe('honoured');
  });
  it('a service that never says it honours the key: a create is sent once (with its key)', async () => {
    srv.setHandler(() => ({ status: 503, text: '' }));
    const { client, delays } = make();
    const e = (await catchError(client.createJob('wf', { project_id: 'p' }))) as EoApiError;
    expect(e).toMatchObject({ status: 503, retryable: true, attempts: 1 });
    expect(srv.requests).toHaveLength(1);
    expect(srv.requests[0]!.headers['idempotency-key']).toBeTruthy();
    expect(delays).toEqual([]);
    expect(client.capabilities.idempotencyKey).toBe('unknown');
    // Forced by the caller (e.g. a proxy that drops the header): resent with the same key.
    srv.requests.length = 0;
    const forced = make({ idempotency: 'honoured', retry: { maxAttempts: 2 } }).client;
    await catchError(forced.createJob('wf', { project_id: 'p' }));
    expect(srv.requests).toHaveLength(2);
  });
  it('a header that says something else takes the promise back', async () => {
    let says = 'honoured';
    srv.setHandler(() => ({
      status: 200,
      json: canned.listIndices(),
      headers: { 'idempotency-key-support': says },
    }));
    const { client } = make();
    await client.listIndices();
    expect(client.capabilities.idempotencyKey).toBe('honoured');
    says = 'none';
    await client.listIndices();
    expect(client.capabilities.idempotencyKey).toBe('unknown');
  });
  it('connection refused is an EoNetworkError after every attempt', async () => {
    const port = await closedPort();
    const { client, delays } = make({
      baseUrl: `http://127.0.0.1:${port}`,
      retry: { maxAttempts: 3 },
    });
    const e = (await catchError(client.listOrders())) as EoNetworkError;
    expect(e).toBeInstanceOf(EoNetworkError);
    expect(e).toMatchObject({ kind: 'network', retryable: true, attempts: 3 });
    expect(e.message).toContain('ECONNREFUSED');
    expect(delays).toHaveLength(2);
  });
});

describe('the API key never leaks', () => {
  it('not in messages, details, bodies, toString, JSON or hook payloads', async () => {
    // A hostile or careless server echoing the Authorization header everywhere.
    srv.setHandler((r) => ({
      status: 401,
      json: {
        error: {
          code: 'unauthorized',
          message: `bad key ${r.headers.authorization}`,
          details: [{ path: 'authorization', message: `got ${r.headers.authorization}` }],
        },
        echo: r.headers.authorization,
      },
    }));
    for (const o of [
      { apiKey: KEY },
      { apiKey: () => KEY, authPrefix: 'Bearer ' },
      { apiKey: async () => KEY, authPrefix: 'ApiKey ' },
    ]) {
      const events: Array<RequestEvent | ResponseEvent> = [];
      const { client } = make({
        ...o,
        onRequest: (e) => events.push(e),
        onResponse: (e) => events.push(e),
      });
      const e = (await catchError(client.listOrders())) as EoApiError;
      const everything = [
        e.message,
        String(e),
        e.stack ?? '',
        JSON.stringify(e),
        JSON.stringify(e.details),
        JSON.stringify(e.body),
        JSON.stringify(events),
        String(client),
        JSON.stringify(client),
      ].join('\n');
      expect(everything).not.toContain(KEY);
      expect(everything).toContain('[redacted]');
    }
  });
  it('network error messages are scrubbed too', async () => {
    const port = await closedPort();
    const { client } = make({ baseUrl: `http://127.0.0.1:${port}`, retry: { maxAttempts: 1 } });
    const e = (await catchError(client.listOrders())) as Error;
    expect(`${e.message}${String(e)}`).not.toContain(KEY);
  });
});

describe('hooks', () => {
  it('onRequest/onResponse: method, path, attempt, status, duration, retry wait', async () => {
    let n = 0;
    srv.setHandler(() => (++n === 1 ? { status: 503, text: '' } : { json: canned.listOrders() }));
    const events: Array<RequestEvent | ResponseEvent> = [];
    const { client } = make({
      random: () => 0.5,
      retry: { baseDelayMs: 100 },
      onRequest: (e) => events.push(e),
      onResponse: (e) => events.push(e),
    });
    await client.listOrders({ limit: 2 });
    expect(events).toEqual([
      {
        endpoint: 'listOrders',
        method: 'GET',
        path: '/v0/orders?limit=2',
        attempt: 1,
        headers: {
          accept: 'application/json',
          'accept-encoding': 'br, gzip',
          authorization: '[redacted]',
        },
      },
      expect.objectContaining({ attempt: 1, status: 503, error: 'api', retryInMs: 50 }),
      expect.objectContaining({ attempt: 2, path: '/v0/orders?limit=2' }),
      expect.objectContaining({ attempt: 2, status: 200, durationMs: expect.any(Number) }),
    ]);
    expect(events[3]).not.toHaveProperty('error');
    // An answered attempt carries what read-ahead measures, and the body's size on the wire.
    const timing = (events[3] as ResponseEvent).timing!;
    expect(timing.waitMs).toBeGreaterThanOrEqual(0);
    expect(timing.bodyMs).toBeGreaterThanOrEqual(0);
    expect(timing.bytes).toBe(JSON.stringify(canned.listOrders()).length);
    // Sent chunked: no length on the wire to read.
    expect(timing.wireBytes).toBeUndefined();
    expect((events[1] as ResponseEvent).timing).toBeUndefined();
  });
  it('onResponse: the wire size is the Content-Length the service sent', async () => {
    const text = JSON.stringify(canned.listOrders());
    srv.setHandler(() => ({
      text,
      headers: {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(text)),
      },
    }));
    const events: ResponseEvent[] = [];
    const { client } = make({ onResponse: (e) => events.push(e) });
    await client.listOrders({ limit: 2 });
    expect(events[0]!.timing).toMatchObject({
      bytes: text.length,
      wireBytes: Buffer.byteLength(text),
    });
  });
  it('a throwing hook does not break requests', async () => {
    srv.setHandler(() => ({ json: canned.listOrders() }));
    const { client } = make({
      onRequest: () => {
        throw new Error('boom');
      },
      onResponse: () => {
        throw new Error('boom');
      },
    });
    expect((await client.listOrders()).orders).toHaveLength(1);
  });
});

describe('concurrency limit', () => {
  it('never has more than `concurrency` requests in flight across calls', async () => {
    let inFlight = 0;
    let max = 0;
    srv.setHandler(async () => {
      inFlight++;
      max = Math.max(max, inFlight);
      await new Promise((r) => setTimeout(r, 30));
      inFlight--;
      return { json: canned.listOrders() };
    });
    const { client } = make({ concurrency: 3 });
    const calls = Array.from({ length: 10 }, () => client.listOrders());
    await new Promise((r) => setTimeout(r, 10));
    expect(client.inFlight).toBe(3);
    await Promise.all(calls);
    expect(max).toBe(3);
    expect(srv.requests).toHaveLength(10);
    expect(client.inFlight).toBe(0);
  });
  it('a call waiting for a slot can be aborted and never sends', async () => {
    srv.setHandler(async () => {
      await new Promise((r) => setTimeout(r, 100));
      return { json: canned.listOrders() };
    });
    const { client } = make({ concurrency: 1 });
    const first = client.listOrders();
    const ac = new AbortController();
    const second = catchError(client.listOrders({}, { signal: ac.signal }));
    ac.abort();
    const e = await second;
    expect(e).toBeInstanceOf(EoAbortError);
    expect(e).toMatchObject({ attempts: 0 });
    await first;
    expect(srv.requests).toHaveLength(1);
  });
});
