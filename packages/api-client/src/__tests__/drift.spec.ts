/**
 * Responses that differ from the spec: drift is reported with paths and the data still returned
 * when usable; unusable bodies are EoResponseErrors. Served by a recording HTTP server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wire } from '../../test/fixtures';
import { startHttpServer, type TestHttpServer } from '../../test/http-server';
import { createEoClient, EoResponseError, type EoClient, type SchemaDriftEvent } from '../index';

let srv: TestHttpServer;
let client: EoClient;
const drift: SchemaDriftEvent[] = [];
beforeAll(async () => {
  srv = await startHttpServer();
  client = createEoClient({
    baseUrl: srv.url,
    apiKey: 'eok_drift',
    onSchemaDrift: (e) => drift.push(e),
  });
});
afterAll(async () => srv.close());

async function catchError(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

describe('schema drift', () => {
  it('a bad record in a list: reported with its path, the list still returned', async () => {
    drift.length = 0;
    const bad = { ...wire.index('idx-2'), expression_type: 'ratio', rescale: ['-1', '1'] };
    srv.setHandler(() => ({
      json: { indices: [wire.index('idx-1'), bad], pagination: { limit: 10, offset: 0, total: 2 } },
    }));
    const res = await client.listIndices();
    expect(drift).toHaveLength(1);
    expect(drift[0]!.endpoint).toBe('listIndices');
    expect(drift[0]!.issues.map((i) => i.path)).toEqual([
      'indices.1.expression_type',
      'indices.1.rescale.0',
      'indices.1.rescale.1',
    ]);
    expect(drift[0]!.issues[0]!.message).toMatch(/composite|index|grayscale/);
    expect(res.indices.map((i) => i.id)).toEqual(['idx-1', 'idx-2']);
    expect(res.indices[1]!.expression_type).toBe('ratio'); // as received
  });
  it('a drifted pagination object is reported; the records are still returned', async () => {
    drift.length = 0;
    srv.setHandler(() => ({ json: { orders: [wire.order()], pagination: { page: 1 } } }));
    const res = await client.listOrders();
    expect(drift[0]!.issues.map((i) => i.path)).toEqual([
      'pagination.limit',
      'pagination.offset',
      'pagination.total',
    ]);
    expect(res.orders[0]!.id).toBe('ord-1');
    // A pager reads no total from it; this server also ignores offset, so the repeated page ends it.
    const pages = [];
    for await (const p of client.pages.orders({}, { pageSize: 1 })) pages.push(p);
    expect(pages.map((p) => [p.items.length, p.total, p.end])).toEqual([
      [1, undefined, undefined],
      [0, undefined, 'repeated'],
    ]);
  });
  it('a resource with its id but a broken field: reported, returned', async () => {
    drift.length = 0;
    srv.setHandler(() => ({
      status: 201,
      json: { ...wire.index('idx-9'), name: undefined, created_at: '17/05/2024' },
    }));
    const res = await client.createIndex({
      name: 'n',
      description: '',
      rescale: [0, 1],
      expression: 'B04',
      colormap: 'gray',
      satellite_id: 'sat-aurora-1',
      expression_type: 'grayscale',
      type: 'custom',
    });
    expect(drift[0]!.issues.map((i) => i.path)).toEqual(['name', 'created_at']);
    expect(res.id).toBe('idx-9');
  });
  it('unknown fields are kept, and are not drift', async () => {
    drift.length = 0;
    srv.setHandler(() => ({
      json: {
        aois: [{ ...wire.aoi(), vendor_score: 0.9 }],
        pagination: { limit: 10, offset: 0, total: 1, next: null },
        request_id: 'r-1',
      },
    }));
    const res = await client.listAois();
    expect(drift).toEqual([]);
    expect(res.aois[0]).toMatchObject({ vendor_score: 0.9 });
    expect(res).toMatchObject({ request_id: 'r-1', pagination: { next: null } });
  });
  it('satellite items as an array: reported (the spec says object), still returned', async () => {
    drift.length = 0;
    srv.setHandler(() => ({
      json: { items: [wire.satelliteFeature()], pagination: { limit: 10, skip: 0, total: 1 } },
    }));
    const res = await client.searchSatelliteImages({
      satellite: { collection_id: 'c', satellite_id: 's' },
    });
    expect(drift[0]!.issues[0]!.path).toBe('items');
    expect(res.items).toEqual([wire.satelliteFeature()]);
  });
  it('many bad records: at most 100 issues plus a count', async () => {
    drift.length = 0;
    const bad = Array.from({ length: 150 }, (_, i) => ({ ...wire.aoi(`a-${i}`), status: 'odd' }));
    srv.setHandler(() => ({
      json: { aois: bad, pagination: { limit: 150, offset: 0, total: 150 } },
    }));
    const res = await client.listAois({ limit: 150 });
    expect(res.aois).toHaveLength(150);
    expect(drift[0]!.issues).toHaveLength(101);
    expect(drift[0]!.issues[100]!.message).toBe('and 50 more issues');
  });
  it('a throwing drift hook does not break the call', async () => {
    const c = createEoClient({
      baseUrl: srv.url,
      apiKey: 'eok_drift',
      onSchemaDrift: () => {
        throw new Error('boom');
      },
    });
    srv.setHandler(() => ({ json: { aois: [{ aoi_id: 'a' }], pagination: {} } }));
    const res = await c.listAois();
    expect(res.aois[0]!.aoi_id).toBe('a');
  });
});

describe('unusable bodies', () => {
  const cases: Array<[string, () => Promise<unknown>, unknown]> = [
    ['a list key that is not an array', () => client.listAois(), { aois: null, pagination: {} }],
    ['a missing list key', () => client.listOrders(), { data: [] }],
    [
      'a resource without its id',
      () => client.createJob('wf', { project_id: 'p' }),
      { status: 'x' },
    ],
    ['a JSON array instead of an object', () => client.listIndices(), [1, 2]],
    [
      'satellite search without items',
      () => client.searchSatelliteImages({ satellite: { collection_id: 'c', satellite_id: 's' } }),
      { pagination: {} },
    ],
  ];
  for (const [name, call, body] of cases) {
    it(`${name} is an EoResponseError`, async () => {
      srv.setHandler(() => ({ json: body }));
      const e = await catchError(call());
      expect(e).toBeInstanceOf(EoResponseError);
      expect(e).toMatchObject({ kind: 'response', retryable: false, status: 200 });
    });
  }
  it('a 200 with an HTML body is an EoResponseError naming the content type', async () => {
    srv.setHandler(() => ({
      text: '<html>captive portal</html>',
      headers: { 'content-type': 'text/html' },
    }));
    const e = await catchError(client.listIndices());
    expect(e).toBeInstanceOf(EoResponseError);
    expect((e as Error).message).toContain('text/html');
  });
  it('a 200 with an empty body is an EoResponseError', async () => {
    srv.setHandler(() => ({ text: '' }));
    const e = await catchError(client.listIndices());
    expect((e as Error).message).toContain('empty body');
  });
});
