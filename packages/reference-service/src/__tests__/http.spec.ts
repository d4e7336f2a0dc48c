import { ENDPOINT_IDS, endpoints, IDEMPOTENCY_SUPPORT_HEADER } from '@eo/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
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

describe('Idempotency-Key support is said, not assumed', () => {
  const header = IDEMPOTENCY_SUPPORT_HEADER.toLowerCase();
  it('on a create, a replay, a refused create, a read, a 401 and an unknown route', async () => {
    const body = {
      name: 'Said index',
      description: 'd',
      rescale: [-1, 1],
      expression: '(B08 - B04) / (B08 + B04)',
      colormap: 'RdYlGn',
      satellite_id: 'sat-aurora-1',
      expression_type: 'index',
      type: 'custom',
    };
    const create = () =>
      t.call({
        method: 'POST',
        url: '/v0/indices',
        headers: { 'idempotency-key': 'said-1' },
        payload: body,
      });
    const first = await create();
    expect(first.statusCode).toBe(201);
    const replay = await create();
    expect(replay.headers['idempotent-replayed']).toBe('true');
    const answers = [
      first,
      replay,
      await t.call({ method: 'POST', url: '/v0/indices', payload: { name: '' } }),
      await t.call({ method: 'GET', url: '/v0/indices?limit=1' }),
      await t.call({ method: 'GET', url: '/v0/indices', key: null }),
      await t.call({ method: 'GET', url: '/v0/nope' }),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([201, 201, 400, 200, 401, 404]);
    for (const r of answers) expect(r.headers[header]).toBe('honoured');
  });
  it('the OpenAPI document shows the header on every create response', async () => {
    const doc = (await t.call({ method: 'GET', url: '/v0/openapi.json', key: null })).json();
    for (const id of ENDPOINT_IDS) {
      const def = endpoints[id];
      const path = def.path.replace(/:([a-z_]+)/g, '{$1}');
      const ok = doc.paths[path][def.method.toLowerCase()].responses[String(def.status)];
      if (def.kind === 'create') {
        expect(ok.headers[IDEMPOTENCY_SUPPORT_HEADER].schema.const, id).toBe('honoured');
      } else expect(ok.headers, id).toBeUndefined();
    }
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
    ).toEqual([
      'createAoiDownload',
      'createCatalogDownload',
      'downloadJob',
      'downloadTask',
      'estimateWorkflowCost',
      'generateIndexPng',
      'getAoi',
      'getAoiDownload',
      'getCatalogDownload',
      'getDelivery',
      'getDownloadManifest',
      'getJob',
      'getOrder',
      'getOrderItem',
      'getQuicklook',
      'getSceneCog',
      'getVisualization',
      'getWorkflowJob',
      'listArchiveCollections',
      'listBandsets',
      'listDeliveries',
      'listProjects',
      'listSatellites',
      'listStores',
      'listVisualizations',
      'listWorkflowJobs',
      'listWorkflows',
      'ping',
      'searchArchive',
    ]);
    expect(
      doc.paths['/v0/aois/{aoi_id}/visualizations/{visualization_id}'].get.parameters.map(
        (p: { name: string }) => p.name,
      ),
    ).toEqual(['aoi_id', 'visualization_id']);
    // The create on the same path keeps its own operation.
    expect(doc.paths['/v0/catalogs/deliveries'].post.operationId).toBe('createDeliveries');
    // The table's PUTs are PUTs in the document, with their path parameters.
    const put = doc.paths['/v0/workflows/{workflow_id}/jobs/{job_id}/tasks/{task_id}/download'].put;
    expect(put.operationId).toBe('downloadTask');
    expect(put.parameters.map((p: { name: string }) => p.name)).toEqual([
      'workflow_id',
      'job_id',
      'task_id',
    ]);
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
