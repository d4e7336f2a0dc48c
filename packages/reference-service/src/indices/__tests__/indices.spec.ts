import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../testing/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const body = {
  name: 'Red edge NDVI',
  description: 'NDVI with the red-edge band',
  rescale: [-1, 1],
  expression: '(B08 - B05) / (B08 + B05)',
  colormap: 'RdYlGn',
  satellite_id: 'sat-aurora-1',
  expression_type: 'index',
  type: 'custom',
};

describe('GET /v0/indices', () => {
  it('lists presets with the spec defaults (limit 10, offset 0)', async () => {
    const res = await t.call({ method: 'GET', url: '/v0/indices' });
    expect(res.statusCode).toBe(200);
    const { indices, pagination } = res.json();
    expect(pagination).toEqual({ limit: 10, offset: 0, total: 6 });
    expect(indices.map((i: { name: string }) => i.name)).toContain('NDVI');
    expect(indices[0].created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/);
  });
  it('filters by satellite, type, expression_type and id', async () => {
    const bySat = (
      await t.call({ method: 'GET', url: '/v0/indices?satellite_id=sat-kestrel-1' })
    ).json();
    expect(
      bySat.indices.every((i: { satellite_id: string }) => i.satellite_id === 'sat-kestrel-1'),
    ).toBe(true);
    expect(bySat.pagination.total).toBe(2);
    const composite = (
      await t.call({ method: 'GET', url: '/v0/indices?expression_type=composite' })
    ).json();
    expect(composite.indices.map((i: { id: string }) => i.id)).toEqual(['idx-truecolor-aurora']);
    const one = (
      await t.call({ method: 'GET', url: '/v0/indices?index_id=idx-ndwi-aurora' })
    ).json();
    expect(one.indices).toHaveLength(1);
    const custom = (await t.call({ method: 'GET', url: '/v0/indices?type=custom' })).json();
    expect(custom.indices.every((i: { type: string }) => i.type === 'custom')).toBe(true);
  });
  it('pages with limit and offset', async () => {
    const page = (await t.call({ method: 'GET', url: '/v0/indices?limit=2&offset=4' })).json();
    expect(page.indices).toHaveLength(2);
    expect(page.pagination).toMatchObject({ limit: 2, offset: 4 });
  });
});

describe('POST /v0/indices', () => {
  it('creates a custom index with bands derived from the expression (201)', async () => {
    const res = await t.call({ method: 'POST', url: '/v0/indices', payload: body });
    expect(res.statusCode).toBe(201);
    const idx = res.json();
    expect(idx).toMatchObject({
      name: body.name,
      type: 'custom',
      bands: ['B08', 'B05'],
      satellite_id: 'sat-aurora-1',
    });
    const listed = (await t.call({ method: 'GET', url: `/v0/indices?index_id=${idx.id}` })).json();
    expect(listed.indices).toHaveLength(1);
    // another organisation does not see it
    const other = (
      await t.call({ method: 'GET', url: `/v0/indices?index_id=${idx.id}`, key: t.otherKey })
    ).json();
    expect(other.indices).toHaveLength(0);
  });
  it('rejects bands the satellite lacks and unparsable expressions with a clear 400', async () => {
    const bad = await t.call({
      method: 'POST',
      url: '/v0/indices',
      payload: { ...body, expression: '(NIR - B04) / 2' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/unknown band NIR/);
    const broken = await t.call({
      method: 'POST',
      url: '/v0/indices',
      payload: { ...body, expression: '(B08 - ' },
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error.details[0].path).toBe('expression');
  });
  it('rejects unknown satellites and missing fields', async () => {
    const sat = await t.call({
      method: 'POST',
      url: '/v0/indices',
      payload: { ...body, satellite_id: 'sat-nope' },
    });
    expect(sat.statusCode).toBe(400);
    expect(sat.json().error.details[0].path).toBe('satellite_id');
    const { colormap: _c, ...missing } = body;
    const res = await t.call({ method: 'POST', url: '/v0/indices', payload: missing });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.map((d: { path: string }) => d.path)).toContain('colormap');
  });
  it('replays a create with the same Idempotency-Key and rejects a different body', async () => {
    const headers = { 'idempotency-key': 'idx-test-1' };
    const first = await t.call({
      method: 'POST',
      url: '/v0/indices',
      payload: { ...body, name: 'Once' },
      headers,
    });
    const again = await t.call({
      method: 'POST',
      url: '/v0/indices',
      payload: { ...body, name: 'Once' },
      headers,
    });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    const all = (await t.call({ method: 'GET', url: '/v0/indices?type=custom&limit=100' })).json();
    expect(all.indices.filter((i: { name: string }) => i.name === 'Once')).toHaveLength(1);
    const conflict = await t.call({
      method: 'POST',
      url: '/v0/indices',
      payload: { ...body, name: 'Twice' },
      headers,
    });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().error.code).toBe('idempotency_conflict');
  });
  it('scopes idempotency keys to the organisation', async () => {
    const headers = { 'idempotency-key': 'shared-key' };
    const a = await t.call({
      method: 'POST',
      url: '/v0/indices',
      payload: { ...body, name: 'A' },
      headers,
    });
    const b = await t.call({
      method: 'POST',
      url: '/v0/indices',
      payload: { ...body, name: 'B' },
      headers,
      key: t.otherKey,
    });
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(b.json().id).not.toBe(a.json().id);
  });
});
