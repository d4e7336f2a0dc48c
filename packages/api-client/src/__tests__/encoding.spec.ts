/**
 * Every method's wire encoding (method, path, query, headers, body) against a recording HTTP
 * server on 127.0.0.1 that answers canned valid bodies.
 */
import { ENDPOINT_IDS, endpoints, type EndpointId } from '@eo/domain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { canned } from '../../test/fixtures';
import { startHttpServer, type Recorded, type TestHttpServer } from '../../test/http-server';
import { createEoClient, type EoClient } from '../index';

const KEY = 'eok_test-key-encoding';
let srv: TestHttpServer;
let client: EoClient;
const drift: unknown[] = [];

/** Answers each request with the canned body of the endpoint its method+path match. */
function endpointOf(r: Recorded): EndpointId {
  const match = ENDPOINT_IDS.find((id) => {
    const def = endpoints[id];
    const re = new RegExp(`^${def.path.replace(/:[a-z_]+/g, '[^/]+')}$`);
    return def.method === r.method && re.test(r.path);
  });
  if (!match) throw new Error(`no endpoint for ${r.method} ${r.path}`);
  return match;
}

beforeAll(async () => {
  srv = await startHttpServer((r) => {
    const id = endpointOf(r);
    return { status: endpoints[id].status, json: canned[id]() };
  });
  client = createEoClient({ baseUrl: srv.url, apiKey: KEY, onSchemaDrift: (e) => drift.push(e) });
});
afterAll(async () => srv.close());
beforeEach(() => {
  srv.requests.length = 0;
});

function only(): Recorded {
  expect(srv.requests).toHaveLength(1);
  return srv.requests[0]!;
}

const polygon = {
  type: 'Polygon' as const,
  coordinates: [
    [
      [10, 50],
      [10.1, 50],
      [10.1, 50.1],
      [10, 50.1],
      [10, 50],
    ] as Array<[number, number]>,
  ],
};

describe('the client surface', () => {
  it('has one method per endpoint of the domain table (14)', () => {
    expect(ENDPOINT_IDS).toHaveLength(14);
    for (const id of ENDPOINT_IDS) expect(typeof client[id]).toBe('function');
  });
  it('sends the bare key by default, JSON accept, no body on GETs', async () => {
    await client.listIndices();
    const r = only();
    expect(r.headers.authorization).toBe(KEY);
    expect(r.headers.accept).toBe('application/json');
    expect(r.headers['content-type']).toBeUndefined();
    expect(r.headers['idempotency-key']).toBeUndefined();
    expect(r.bodyText).toBe('');
  });
  it('sends authPrefix before the key', async () => {
    const c = createEoClient({ baseUrl: `${srv.url}/`, apiKey: KEY, authPrefix: 'Bearer ' });
    await c.listIndices();
    expect(only().headers.authorization).toBe(`Bearer ${KEY}`);
  });
});

describe('reads: path parameters and query strings', () => {
  it('listOrderItems: lists comma-separated, ranges as interval strings', async () => {
    const res = await client.listOrderItems({
      user_id: 'usr 1',
      type: ['TASKING', 'ARCHIVE'],
      status: 'ACTIVE',
      order_ids: ['o1', 'o2'],
      created_by: 'usr-2',
      created_at: '2024-01-01T00:00:00Z/..',
      project_ids: ['p1'],
      ids: 'a,b',
      area: '100/5000',
      limit: 5,
      offset: 10,
    });
    const r = only();
    expect(r.method).toBe('GET');
    expect(r.path).toBe('/v0/order-items');
    expect(r.search).toBe(
      'user_id=usr%201&type=TASKING,ARCHIVE&status=ACTIVE&order_ids=o1,o2&created_by=usr-2' +
        '&created_at=2024-01-01T00%3A00%3A00Z%2F..&project_ids=p1&ids=a%2Cb&area=100%2F5000&limit=5&offset=10',
    );
    expect(r.query).toMatchObject({
      type: 'TASKING,ARCHIVE',
      created_at: '2024-01-01T00:00:00Z/..',
      ids: 'a,b',
      area: '100/5000',
    });
    expect(res.order_items[0]!.id).toBe('oi-1');
    expect(res.pagination.total).toBe(1);
  });
  it('listAoiAssets: the path parameter is percent-encoded', async () => {
    const res = await client.listAoiAssets('aoi/1 x?', { offset: 0, limit: 3 });
    const r = only();
    expect(r.path).toBe('/v0/aois/aoi%2F1%20x%3F/assets');
    expect(r.search).toBe('offset=0&limit=3');
    expect(res.assets[0]!.id).toBe('ast-1');
  });
  it('listAois: filters as given, nothing added', async () => {
    await client.listAois({
      aoi_name: 'Field A',
      project_ids: ['p1', 'p2'],
      created_at: '../2024-06-01T00:00:00Z',
    });
    expect(only().search).toBe(
      'aoi_name=Field%20A&project_ids=p1,p2&created_at=..%2F2024-06-01T00%3A00%3A00Z',
    );
  });
  it('listIndices: no query string when no filter is given; enum filters', async () => {
    await client.listIndices();
    expect(only().url).toBe('/v0/indices');
    srv.requests.length = 0;
    const res = await client.listIndices({ type: 'custom', satellite_id: 'sat-aurora-1' });
    expect(only().search).toBe('type=custom&satellite_id=sat-aurora-1');
    expect(res.indices[0]!.expression_type).toBe('index');
  });
  it('listOrders', async () => {
    const res = await client.listOrders({ user_id: 'usr-demo-analyst', limit: 2 });
    const r = only();
    expect(r.path).toBe('/v0/orders');
    expect(r.search).toBe('user_id=usr-demo-analyst&limit=2');
    expect(res.orders[0]!.order_items[0]!.type).toBe('TASKING');
  });
  it('listArchiveItems: collection id in the path', async () => {
    const res = await client.listArchiveItems('col/a', { limit: 2, offset: 4 });
    const r = only();
    expect(r.path).toBe('/v0/archives/collections/col%2Fa/items');
    expect(r.search).toBe('limit=2&offset=4');
    // Defaults of the tolerant schema are applied on the way in.
    expect(res.features[0]!.stac_extensions).toEqual([]);
    expect(res.features[0]!.bbox).toEqual(['10', '50', '10.1', '50.1']);
  });
});

describe('searches: JSON bodies sent as given, no Idempotency-Key', () => {
  it('searchCatalogs', async () => {
    const body = {
      bbox: [170, -10, -170, 10] as [number, number, number, number],
      collections: ['col-aurora-l2a'],
      datetime: '2024-01-01T00:00:00Z/..',
      query: { 'eo:cloud_cover': { lt: 20 }, platform: { eq: ['aurora-1', 'aurora-2'] } },
      sort_by: [{ field: 'properties.datetime', direction: 'desc' as const }],
      limit: 50,
    };
    const res = await client.searchCatalogs(body);
    const r = only();
    expect(r.method).toBe('POST');
    expect(r.url).toBe('/v0/catalogs/search');
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['idempotency-key']).toBeUndefined();
    expect(r.body).toEqual(body); // no offset/default added: the server applies defaults
    expect(res.catalogs[0]!.details.properties['eo:cloud_cover']).toBe(0);
  });
  it('searchCatalogs with no argument sends {}', async () => {
    await client.searchCatalogs();
    expect(only().body).toEqual({});
  });
  it('searchSatelliteImages', async () => {
    const body = {
      satellite: { collection_id: 'col-aurora-l2a', satellite_id: 'sat-aurora-1' },
      start_date: '2024-01-01T00:00:00Z',
      end_date: '2024-02-01T00:00:00Z',
      filters: [{ id: 'eo:cloud_cover', max: 20 }],
      geometry: polygon,
      skip: 0,
      limit: 5,
    };
    const res = await client.searchSatelliteImages(body);
    const r = only();
    expect(r.url).toBe('/v0/search');
    expect(r.body).toEqual(body);
    expect(res.pagination.skip).toBe(0);
  });
});

describe('creates: JSON bodies and one Idempotency-Key per call', () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  const indexBody = {
    name: 'NDVI red edge',
    description: '',
    rescale: [-1, 1],
    expression: '(B08 - B05) / (B08 + B05)',
    colormap: 'RdYlGn',
    satellite_id: 'sat-aurora-1',
    expression_type: 'index' as const,
    type: 'custom' as const,
  };

  it('createIndex: a fresh UUID key per call', async () => {
    const res = await client.createIndex(indexBody);
    await client.createIndex(indexBody);
    const [a, b] = srv.requests;
    expect(a!.method).toBe('POST');
    expect(a!.url).toBe('/v0/indices');
    expect(a!.body).toEqual(indexBody);
    expect(a!.headers['idempotency-key']).toMatch(UUID);
    expect(b!.headers['idempotency-key']).toMatch(UUID);
    expect(a!.headers['idempotency-key']).not.toBe(b!.headers['idempotency-key']);
    expect(res.id).toBe('idx-1');
  });
  it("uses the caller's key, or none with idempotencyKey: false", async () => {
    await client.createIndex(indexBody, { idempotencyKey: 'outbox-42' });
    await client.createIndex(indexBody, { idempotencyKey: false });
    expect(srv.requests[0]!.headers['idempotency-key']).toBe('outbox-42');
    expect(srv.requests[1]!.headers['idempotency-key']).toBeUndefined();
  });
  it('createOrder: the body as given (dry_run default left to the server)', async () => {
    const body = {
      order_items: [
        {
          project_id: 'prj-demo-crops',
          name: 'Field A',
          geometry: {
            type: 'FeatureCollection' as const,
            features: [{ type: 'Feature' as const, geometry: polygon }],
          },
          start_date: '2024-06-01T00:00:00Z',
          end_date: '2024-06-30T00:00:00Z',
          cloud_delivery: { config: 's3', path: 's3://bucket/x' },
        },
      ],
    };
    const res = await client.createOrder(body);
    const r = only();
    expect(r.url).toBe('/v0/orders');
    expect(r.body).toEqual(body);
    expect(r.body).not.toHaveProperty('dry_run');
    expect(res.status).toBe('UNPAID');
  });
  it('createVisualization', async () => {
    const res = await client.createVisualization('aoi 1', {
      index_id: 'idx-ndvi-aurora',
      src_asset_ids: ['ast-1'],
    });
    const r = only();
    expect(r.url).toBe('/v0/aois/aoi%201/visualizations');
    expect(r.body).toEqual({ index_id: 'idx-ndvi-aurora', src_asset_ids: ['ast-1'] });
    expect(r.headers['idempotency-key']).toMatch(UUID);
    expect(res.status).toBe('creating');
  });
  it('createDeliveries', async () => {
    const body = {
      deliveries: [{ catalog_ids: ['cat-1'], cloud_info: { config: 's3', path: 's3://b/p' } }],
    };
    const res = await client.createDeliveries(body);
    expect(only().body).toEqual(body);
    expect(res.deliveries[0]!.delivery_id).toBe('dlv-1');
  });
  it('createAoi', async () => {
    const body = {
      name: 'Field A',
      description: 'north field',
      satellite_id: 'sat-aurora-1',
      provider: 'aurora',
      project_id: 'prj-demo-crops',
      geometry: polygon,
      item_ids: ['arc-1'],
    };
    const res = await client.createAoi(body);
    const r = only();
    expect(r.url).toBe('/v0/aois');
    expect(r.body).toEqual(body);
    expect(res.aoi_id).toBe('aoi-1');
  });
  it('createJob: project_id in the query, no body, still an Idempotency-Key', async () => {
    const res = await client.createJob('wf 1', { project_id: 'prj-demo-crops' });
    const r = only();
    expect(r.method).toBe('POST');
    expect(r.url).toBe('/v0/workflows/wf%201/jobs?project_id=prj-demo-crops');
    expect(r.bodyText).toBe('');
    expect(r.headers['content-type']).toBeUndefined();
    expect(r.headers['idempotency-key']).toMatch(UUID);
    expect(res.workflow_id).toBe('wf-1');
  });
  it('request(): any endpoint by id with explicit parts', async () => {
    await client.request('listAoiAssets', { params: { aoi_id: 'a' }, query: { limit: 1 } });
    expect(only().url).toBe('/v0/aois/a/assets?limit=1');
  });
});

describe('canned bodies', () => {
  it('every canned body passed its response schema (no drift reported above)', () => {
    expect(drift).toEqual([]);
  });
});
