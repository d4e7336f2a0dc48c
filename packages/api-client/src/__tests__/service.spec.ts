/**
 * Against the real reference service on 127.0.0.1: the endpoints it implements on main today
 * (indices), auth, validation errors from both sides, idempotent creates, pagination.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexBody, startService, type TestService } from '../../test/service';
import {
  allItems,
  createEoClient,
  EoApiError,
  EoValidationError,
  type EoClientOptions,
  type RequestEvent,
} from '../index';

let svc: TestService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => svc.close());

const drift: unknown[] = [];
const make = (o: Partial<EoClientOptions> = {}) =>
  createEoClient({
    baseUrl: svc.url,
    apiKey: svc.key,
    retry: { baseDelayMs: 1 },
    onSchemaDrift: (e) => drift.push(e),
    ...o,
  });

async function catchError(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

describe('indices', () => {
  it('lists the presets with the spec defaults, parsed and typed', async () => {
    const res = await make().listIndices();
    expect(res.pagination).toEqual({ limit: 10, offset: 0, total: 6 });
    const ndvi = res.indices.find((i) => i.id === 'idx-ndvi-aurora');
    expect(ndvi).toMatchObject({ name: 'NDVI', type: 'preset', expression_type: 'index' });
  });
  it('filters by type and expression_type', async () => {
    const res = await make().listIndices({ expression_type: 'composite' });
    expect(res.indices.map((i) => i.id)).toEqual(['idx-truecolor-aurora']);
  });
  it('creates an index (201) and finds it again', async () => {
    const client = make();
    const created = await client.createIndex(indexBody('svc-create'));
    expect(created.id).toMatch(/^idx/);
    expect(created.bands).toEqual(expect.arrayContaining(['B08', 'B05']));
    const found = await client.listIndices({ index_id: created.id });
    expect(found.indices).toHaveLength(1);
    expect(found.indices[0]!.name).toBe('svc-create');
  });
  it('the same Idempotency-Key twice creates once and replays the response', async () => {
    const client = make();
    const a = await client.createIndex(indexBody('svc-idem'), { idempotencyKey: 'svc-idem-1' });
    const b = await client.createIndex(indexBody('svc-idem'), { idempotencyKey: 'svc-idem-1' });
    expect(b.id).toBe(a.id);
    const all = await client.listIndices({ type: 'custom', limit: 1000 });
    expect(all.indices.filter((i) => i.name === 'svc-idem')).toHaveLength(1);
  });
  it('reusing a key for a different request is a 409 idempotency_conflict, not retried', async () => {
    const client = make();
    await client.createIndex(indexBody('svc-c1'), { idempotencyKey: 'svc-conflict' });
    const e = await catchError(
      client.createIndex(indexBody('svc-c2'), { idempotencyKey: 'svc-conflict' }),
    );
    expect(e).toBeInstanceOf(EoApiError);
    expect(e).toMatchObject({ status: 409, code: 'idempotency_conflict', attempts: 1 });
  });
});

describe('pagination over the service', () => {
  it('pages through every index with totals and offsets', async () => {
    const client = make();
    for (let i = 0; i < 5; i++) await client.createIndex(indexBody(`svc-page-${i}`));
    const { pagination } = await client.listIndices({ limit: 1 });
    const pages = [];
    for await (const p of client.pages.indices({}, { pageSize: 4 })) pages.push(p);
    expect(pages.map((p) => p.offset)).toEqual(
      Array.from({ length: Math.ceil(pagination.total / 4) }, (_, i) => i * 4),
    );
    expect(pages.every((p) => p.total === pagination.total)).toBe(true);
    const ids = pages.flatMap((p) => p.items.map((i) => i.id));
    expect(ids).toHaveLength(pagination.total);
    expect(new Set(ids).size).toBe(pagination.total);
    const flat = [];
    for await (const idx of allItems(client.pages.indices({ type: 'custom' }, { pageSize: 3 }))) {
      flat.push(idx);
    }
    expect(flat.every((i) => i.type === 'custom')).toBe(true);
    expect(flat.length).toBe(pagination.total - 6);
  });
});

describe('auth', () => {
  it('an unknown key is an EoApiError 401 with the service code, not retried', async () => {
    const events: unknown[] = [];
    const e = await catchError(
      make({ apiKey: 'eok_wrong-key-123', onResponse: (ev) => events.push(ev) }).listIndices(),
    );
    expect(e).toBeInstanceOf(EoApiError);
    const err = e as EoApiError;
    expect(err).toMatchObject({ kind: 'api', status: 401, code: 'unauthorized', retryable: false });
    expect(err.attempts).toBe(1);
    expect(events).toHaveLength(1);
    expect(String(err)).not.toContain('eok_wrong-key-123');
    expect(String(err)).toContain('401');
  });
  it('accepts the Bearer form through authPrefix', async () => {
    const res = await make({ authPrefix: 'Bearer ' }).listIndices({ limit: 1 });
    expect(res.indices).toHaveLength(1);
  });
  it('asks a key function before every attempt (rotation)', async () => {
    let current = svc.key;
    const client = make({ apiKey: () => current });
    await client.listIndices({ limit: 1 });
    current = svc.secondKey;
    await client.listIndices({ limit: 1 });
    current = 'eok_revoked';
    const e = await catchError(client.listIndices({ limit: 1 }));
    expect(e).toMatchObject({ status: 401 });
  });
  it('an async key function works too', async () => {
    const res = await make({ apiKey: async () => svc.key }).listIndices({ limit: 1 });
    expect(res.pagination.limit).toBe(1);
  });
});

describe('validation errors', () => {
  it('client-side: field paths, and nothing is sent', async () => {
    const sent: RequestEvent[] = [];
    const client = make({ onRequest: (e) => sent.push(e) });
    const bad = { ...indexBody('x'), name: '', rescale: [1.5] };
    const e = await catchError(client.createIndex(bad));
    expect(e).toBeInstanceOf(EoValidationError);
    const err = e as EoValidationError;
    expect(err).toMatchObject({ kind: 'validation', retryable: false, attempts: 0 });
    expect(err.details.map((d) => [d.in, d.path])).toEqual([
      ['body', 'name'],
      ['body', 'rescale.0'],
    ]);
    expect(err.message).toContain('name');
    const q = await catchError(client.listIndices({ limit: 0 }));
    expect((q as EoValidationError).details).toEqual([
      { path: 'limit', message: 'limit must be at least 1', in: 'query' },
    ]);
    const p = await catchError(client.listAoiAssets(''));
    expect((p as EoValidationError).details[0]).toMatchObject({ path: 'aoi_id', in: 'params' });
    expect(sent).toEqual([]);
  });
  it("server-side: the service's 400 details come through", async () => {
    // A valid request by the schema, but the satellite has no band B99: only the service knows.
    const e = await catchError(
      make().createIndex({ ...indexBody('bad-band'), expression: '(B99 - B04) / (B99 + B04)' }),
    );
    expect(e).toBeInstanceOf(EoApiError);
    const err = e as EoApiError;
    expect(err).toMatchObject({ status: 400, code: 'validation_failed', attempts: 1 });
    expect(err.details?.[0]).toMatchObject({ path: 'expression' });
    expect(err.details?.[0]?.message).toContain('B99');
  });
  it('server-side query validation when client validation is off', async () => {
    const e = await catchError(make({ validateRequests: false }).listIndices({ limit: 0 }));
    const err = e as EoApiError;
    expect(err.status).toBe(400);
    expect(err.details).toEqual([expect.objectContaining({ path: 'limit', in: 'query' })]);
  });
});

describe('the service matches the domain schemas', () => {
  it('no response above drifted', () => {
    expect(drift).toEqual([]);
  });
});
