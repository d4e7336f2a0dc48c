import { describe, expect, it } from 'vitest';
import {
  AoiList,
  ENDPOINT_IDS,
  CreateOrderRequest,
  endpoints,
  fillPath,
  type EndpointDef,
} from '../index';

/** Part 4 of the spec: method, path (templated), success status. */
const SPEC: [string, string, number][] = [
  ['GET', '/v0/order-items', 200], // 4.1
  ['GET', '/v0/aois/:aoi_id/assets', 200], // 4.2
  ['POST', '/v0/catalogs/search', 200], // 4.3
  ['GET', '/v0/aois', 200], // 4.4
  ['POST', '/v0/search', 200], // 4.5
  ['GET', '/v0/indices', 200], // 4.6
  ['POST', '/v0/indices', 201], // 4.7
  ['POST', '/v0/orders', 201], // 4.8
  ['GET', '/v0/orders', 200], // 4.9
  ['POST', '/v0/aois/:aoi_id/visualizations', 201], // 4.10
  ['POST', '/v0/catalogs/deliveries', 201], // 4.11
  ['POST', '/v0/aois', 201], // 4.12
  ['POST', '/v0/workflows/:workflow_id/jobs', 201], // 4.13
  ['GET', '/v0/archives/collections/:cid/items', 200], // 4.14
];

const defs = Object.values(endpoints) as EndpointDef[];

describe('endpoints table', () => {
  it('holds exactly the 14 endpoints of part 4', () => {
    expect(ENDPOINT_IDS).toHaveLength(14);
    expect(defs.map((d) => [d.method, d.path, d.status]).sort()).toEqual([...SPEC].sort());
  });

  it('the 6 creates answer 201 Created and are kind "create"; reads are GET; searches are POST', () => {
    const creates = defs.filter((d) => d.kind === 'create');
    expect(creates).toHaveLength(6);
    for (const d of creates) {
      expect(d.status).toBe(201);
      expect(d.method).toBe('POST');
    }
    for (const d of defs.filter((d) => d.kind === 'read')) {
      expect(d.method).toBe('GET');
      expect(d.status).toBe(200);
      expect(d.body).toBeUndefined();
    }
    expect(
      defs
        .filter((d) => d.kind === 'search')
        .map((d) => d.path)
        .sort(),
    ).toEqual(['/v0/catalogs/search', '/v0/search']);
  });

  it('every path is under /v0 and every path parameter has a params schema naming it', () => {
    for (const d of defs) {
      expect(d.path.startsWith('/v0/')).toBe(true);
      const names = [...d.path.matchAll(/:([a-z_]+)/g)].map((m) => m[1]);
      if (names.length === 0) {
        expect(d.params).toBeUndefined();
        continue;
      }
      const shape = (d.params as unknown as { shape: Record<string, unknown> }).shape;
      expect(Object.keys(shape).sort()).toEqual([...names].sort());
    }
  });

  it('wires the schemas of the endpoints', () => {
    expect(endpoints.createOrder.body).toBe(CreateOrderRequest);
    expect(endpoints.listAois.response).toBe(AoiList);
    expect(endpoints.createJob.query?.safeParse({}).success).toBe(false);
  });
});

describe('fillPath', () => {
  it('fills and percent-encodes parameters', () => {
    expect(fillPath('/v0/aois/:aoi_id/assets', { aoi_id: 'aoi-1' })).toBe('/v0/aois/aoi-1/assets');
    expect(fillPath('/v0/aois/:aoi_id/assets', { aoi_id: 'a/b' })).toBe('/v0/aois/a%2Fb/assets');
    expect(fillPath('/v0/archives/collections/:cid/items', { cid: 'sentinel 2?#&' })).toBe(
      '/v0/archives/collections/sentinel%202%3F%23%26/items',
    );
    expect(fillPath('/v0/workflows/:workflow_id/jobs', { workflow_id: 'élan' })).toBe(
      '/v0/workflows/%C3%A9lan/jobs',
    );
    expect(fillPath('/v0/aois', {})).toBe('/v0/aois');
  });

  it('refuses a missing or empty parameter', () => {
    expect(() => fillPath('/v0/aois/:aoi_id/assets', {})).toThrow('missing path parameter aoi_id');
    expect(() => fillPath('/v0/aois/:aoi_id/assets', { aoi_id: '' })).toThrow(
      'missing path parameter aoi_id',
    );
  });
});
