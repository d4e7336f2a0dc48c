/**
 * Hostile requests on every route of the endpoint table (the fuzz cases of issue 12, kept):
 * names of Object.prototype members wherever a name goes, lenient integers, malformed or
 * over-long paths, unsafe delivery paths, oversized geometries. Every answer is below 500 and,
 * when it is an error, exactly in our error shape; another organisation's key sees nothing.
 * Deterministic: the cases are listed, not drawn at random.
 */
import { endpoints, ENDPOINT_IDS, extensionEndpoints, LIMITS } from '@eo/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/harness';
import { expectOurShape } from './error-body';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ scenes: 20 });
});
afterAll(async () => t.close());

const PROTO_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
const BAD_INTEGERS = ['0x10', '+1', '1e2', ' 1', '', '1.5', '-1', 'NaN', '1,2'];
const BAD_SEGMENTS = ['%E0%A4%A', '%ZZ', 'a'.repeat(101), ...PROTO_NAMES, '..', '%2e%2e'];

interface Case {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly payload?: unknown;
}

const allRoutes = [
  ...ENDPOINT_IDS.map((id) => endpoints[id]),
  ...Object.values(extensionEndpoints),
] as Array<{ method: 'GET' | 'POST'; path: string; query?: unknown; body?: unknown }>;

function fill(path: string, value: string): string {
  return path.replace(/:[a-z_]+/g, value);
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const r of allRoutes) {
    const base = fill(r.path, 'x1');
    const body = r.method === 'POST' ? {} : undefined;
    for (const seg of BAD_SEGMENTS) {
      if (r.path.includes(':'))
        out.push({ method: r.method, url: fill(r.path, seg), payload: body });
    }
    if (r.method === 'GET') {
      for (const v of BAD_INTEGERS) {
        out.push({ method: 'GET', url: `${base}?limit=${encodeURIComponent(v)}` });
        out.push({ method: 'GET', url: `${base}?offset=${encodeURIComponent(v)}` });
      }
      for (const name of PROTO_NAMES) out.push({ method: 'GET', url: `${base}?${name}=1` });
    } else {
      for (const name of PROTO_NAMES)
        out.push({ method: 'POST', url: base, payload: { [name]: 1 } });
    }
  }
  const search = '/v0/catalogs/search';
  for (const name of PROTO_NAMES) {
    out.push({ method: 'POST', url: search, payload: { query: { [name]: { eq: 1 } } } });
    out.push({
      method: 'POST',
      url: search,
      payload: { query: { [`properties.${name}`]: { lt: 'x' } } },
    });
    out.push({
      method: 'POST',
      url: search,
      payload: { sort_by: [{ field: name, direction: 'desc' }] },
    });
    out.push({
      method: 'POST',
      url: '/v0/search',
      payload: {
        satellite: { collection_id: 'col-aurora-l2a', satellite_id: 'sat-aurora-1' },
        filters: [{ id: name, min: 0 }],
      },
    });
  }
  for (const path of ['file:///etc', '~/x', '%2e%2e/%2e%2e', 'a\u0000b', `a/${'x'.repeat(256)}`]) {
    out.push({
      method: 'POST',
      url: '/v0/catalogs/deliveries',
      payload: { deliveries: [{ catalog_ids: ['c'], cloud_info: { config: 'c', path } }] },
    });
  }
  const n = LIMITS.maxGeometryVertices + 10;
  const ring = Array.from({ length: n }, (_, i) => [
    10 + 0.01 * Math.cos((2 * Math.PI * i) / n),
    45 + 0.01 * Math.sin((2 * Math.PI * i) / n),
  ]);
  const huge = { type: 'Polygon', coordinates: [[...ring, ring[0]]] };
  out.push({ method: 'POST', url: search, payload: { intersects: huge } });
  out.push({
    method: 'POST',
    url: '/v0/aois',
    payload: {
      name: 'x',
      description: '',
      satellite_id: 'sat-aurora-1',
      provider: 'p',
      project_id: 'prj-demo-crops',
      geometry: huge,
      item_ids: ['x'],
    },
  });
  return out;
}

describe('hostile requests on every route', () => {
  it('never a 500, every error in our shape', async () => {
    const all = cases();
    expect(all.length).toBeGreaterThan(300);
    const failures: string[] = [];
    for (const c of all) {
      const res = await t.call({
        method: c.method,
        url: c.url,
        ...(c.payload === undefined ? {} : { payload: c.payload as object }),
      });
      const what = `${c.method} ${c.url.slice(0, 80)} ${JSON.stringify(c.payload)?.slice(0, 80)}`;
      if (res.statusCode >= 500) failures.push(`${res.statusCode} ${what}`);
      if (res.statusCode >= 400) expectOurShape(res.json(), what);
    }
    expect(failures).toEqual([]);
  });

  it('refuses lenient integers on every list endpoint with the parameter as path', async () => {
    for (const r of allRoutes.filter((x) => x.method === 'GET' && x.query)) {
      // The projects read pages as the real service does: page_num / page_size.
      const shape = (r.query as { shape?: Record<string, unknown> }).shape ?? {};
      const name = 'limit' in shape ? 'limit' : 'page_size';
      // Lists without paging (the provider's deliveries and jobs lists) have no integer to abuse.
      if (!(name in shape)) continue;
      for (const v of BAD_INTEGERS.filter((x) => x !== '-1')) {
        const res = await t.call({
          method: 'GET',
          url: `${fill(r.path, 'x1')}?${name}=${encodeURIComponent(v)}`,
        });
        expect(res.statusCode, `${r.path} ${name}=${v}`).toBe(400);
        expect(res.json().error.details.map((d: { path: string }) => d.path)).toContain(name);
      }
    }
  });

  it("another organisation's key never sees the demo organisation's records", async () => {
    const aois = (await t.call({ method: 'GET', url: '/v0/aois?limit=1000' })).json().aois;
    const theirs = await t.call({ method: 'GET', url: '/v0/aois?limit=1000', key: t.otherKey });
    expect(theirs.json().aois).toEqual([]);
    for (const a of aois.slice(0, 3)) {
      const res = await t.call({
        method: 'GET',
        url: `/v0/aois/${a.aoi_id}/assets`,
        key: t.otherKey,
      });
      expect(res.statusCode).toBe(404);
    }
    const catalogs = await t.call({
      method: 'POST',
      url: '/v0/catalogs/search',
      payload: { query: { constructor: { neq: 'x' } } },
      key: t.otherKey,
    });
    expect(catalogs.json().pagination.total).toBe(0);
  });
});
