import { ENDPOINT_IDS } from '@eo/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../testing/harness';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

describe('auth', () => {
  it('rejects a missing key with 401 and the JSON error shape', async () => {
    const res = await t.call({ method: 'GET', url: '/v0/indices', key: null });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      error: { code: 'unauthorized', message: expect.stringContaining('Missing API key') },
    });
  });
  it('rejects an unknown key with 401', async () => {
    const res = await t.call({ method: 'GET', url: '/v0/indices', key: 'eok_not-a-real-key' });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('unauthorized');
  });
  it('accepts the bare key and the Bearer form', async () => {
    expect((await t.call({ method: 'GET', url: '/v0/indices' })).statusCode).toBe(200);
    expect(
      (await t.call({ method: 'GET', url: '/v0/indices', key: `Bearer ${t.key}` })).statusCode,
    ).toBe(200);
  });
});

describe('errors', () => {
  it('404s unknown routes with the error shape', async () => {
    const res = await t.call({ method: 'GET', url: '/v0/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
  });
  it('400s malformed JSON without crashing', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/v0/indices',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('validation_failed');
    expect((await t.call({ method: 'GET', url: '/v0/indices' })).statusCode).toBe(200);
  });
  it('415s non-JSON bodies', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/v0/indices',
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().error.code).toBe('unsupported_media_type');
  });
  it('413s oversized bodies', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(6 * 1024 * 1024) });
    const res = await t.call({
      method: 'POST',
      url: '/v0/indices',
      headers: { 'content-type': 'application/json' },
      payload: big,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('payload_too_large');
  });
  it('400s validation failures with field paths', async () => {
    const res = await t.call({ method: 'GET', url: '/v0/indices?limit=0&bogus=1' });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error.code).toBe('validation_failed');
    const paths = body.error.details.map((d: { path: string }) => d.path);
    expect(paths).toContain('limit');
    expect(body.error.details.every((d: { in: string }) => d.in === 'query')).toBe(true);
  });
});

describe('openapi and docs', () => {
  it('serves an OpenAPI 3 document with all 14 operations, and the extension reads tagged as such', async () => {
    const res = await t.call({ method: 'GET', url: '/v0/openapi.json', key: null });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    const ops = Object.values(
      doc.paths as Record<string, Record<string, { operationId: string; tags?: string[] }>>,
    ).flatMap((p) => Object.values(p));
    const spec = ops.filter((o) => !o.tags?.includes('extension (not in the spec)'));
    expect(spec.map((o) => o.operationId).sort()).toEqual([...ENDPOINT_IDS].sort());
    expect(
      ops
        .filter((o) => !spec.includes(o))
        .map((o) => o.operationId)
        .sort(),
    ).toEqual(['getDelivery', 'getJob', 'getVisualization']);
    expect(
      doc.paths['/v0/aois/{aoi_id}/visualizations/{visualization_id}'].get.parameters.map(
        (p: { name: string }) => p.name,
      ),
    ).toEqual(['aoi_id', 'visualization_id']);
    // The create on the same path keeps its own operation.
    expect(doc.paths['/v0/catalogs/deliveries'].post.operationId).toBe('createDeliveries');
    expect(
      doc.paths['/v0/aois/{aoi_id}/assets'].get.parameters.map((p: { name: string }) => p.name),
    ).toEqual(['aoi_id', 'offset', 'limit']);
  });
  it('serves human docs at /docs', async () => {
    const res = await t.call({ method: 'GET', url: '/docs/', key: null });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<html');
  });
});
