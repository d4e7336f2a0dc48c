/**
 * The `dialect` option: the same internal request goes out in each service profile's wire shape,
 * the profile's rules are checked before sending, open values are warned about (not rejected),
 * and created jobs, deliveries and visualizations are read back where the profile offers it.
 * Against a recording HTTP server on 127.0.0.1.
 */
import {
  buildArchiveOrderItemInput,
  buildCreateIndexRequest,
  buildPolygon,
  buildTaskingOrderItemInput,
} from '@eo/domain/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { canned, wire } from '../../test/fixtures';
import { startHttpServer, type Recorded, type TestHttpServer } from '../../test/http-server';
import {
  createEoClient,
  EoResponseError,
  EoValidationError,
  type EoClient,
  type RequestWarningEvent,
} from '../index';

let srv: TestHttpServer;
let spec: EoClient;
let provider: EoClient;
const warnings: RequestWarningEvent[] = [];

const polygon = buildPolygon();

beforeAll(async () => {
  srv = await startHttpServer(() => ({ status: 200, json: {} }));
  const base = { baseUrl: srv.url, apiKey: 'eok_dialect', retry: { maxAttempts: 1 } };
  spec = createEoClient({ ...base, onRequestWarning: (e) => warnings.push(e) });
  provider = createEoClient({
    ...base,
    dialect: 'provider-v0',
    onRequestWarning: (e) => warnings.push(e),
  });
});
afterAll(async () => srv.close());
beforeEach(() => {
  srv.requests.length = 0;
  warnings.length = 0;
});

function last(): Recorded {
  expect(srv.requests.length).toBeGreaterThan(0);
  return srv.requests[srv.requests.length - 1]!;
}

describe('the profile', () => {
  it('defaults to spec and says which one a client speaks', () => {
    expect(spec.dialect).toBe('spec');
    expect(provider.dialect).toBe('provider-v0');
    expect(provider.profile.sourceAssetTypes).toEqual(['mosaic', 'stac_item']);
  });

  it('refuses an unknown dialect at creation, naming the choices', () => {
    expect(() => createEoClient({ baseUrl: srv.url, apiKey: 'k', dialect: 'v9' as never })).toThrow(
      /use spec or provider-v0/,
    );
  });
});

describe('request shapes', () => {
  const search = {
    satellite: { collection_id: 'col-a', satellite_id: 'sat-a' },
    start_date: '2024-01-01T00:00:00Z',
    end_date: '2024-02-01T00:00:00Z',
    geometry: polygon,
    limit: 50,
  };

  it('satellite search: satellites as a list and no skip for provider-v0, unchanged for spec', async () => {
    srv.setHandler(() => ({ json: canned.searchSatelliteImages() }));
    await provider.searchSatelliteImages(search);
    const sent = last().body as Record<string, unknown>;
    expect(sent.satellites).toEqual([search.satellite]);
    expect(sent).not.toHaveProperty('satellite');
    expect(sent).not.toHaveProperty('skip');
    await spec.searchSatelliteImages({ ...search, skip: 0 });
    expect(last().body).toEqual({ ...search, skip: 0 });
  });

  it('satellite search: provider-v0 needs start_date, end_date, geometry and refuses skip, before sending', async () => {
    const { start_date: _s, geometry: _g, ...partial } = search;
    const err = await provider.searchSatelliteImages(partial).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EoValidationError);
    const paths = (err as EoValidationError).details.map((d) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['start_date', 'geometry']));
    const skip = await provider.searchSatelliteImages({ ...search, skip: 50 }).catch((e) => e);
    expect((skip as EoValidationError).message).toMatch(/no skip/);
    expect(srv.requests).toHaveLength(0);
  });

  it('catalog sort_by: [{ field: direction }] in upper case for provider-v0', async () => {
    srv.setHandler(() => ({ json: canned.searchCatalogs() }));
    const body = {
      sort_by: [{ field: 'properties.datetime', direction: 'desc' as const }, { field: 'id' }],
    };
    await provider.searchCatalogs(body);
    expect((last().body as { sort_by: unknown }).sort_by).toEqual([
      { 'properties.datetime': 'DESC' },
      { id: 'ASC' },
    ]);
    await spec.searchCatalogs(body);
    expect((last().body as { sort_by: unknown }).sort_by).toEqual(body.sort_by);
  });

  it('deliveries carry both id lists for provider-v0 (the unused one empty)', async () => {
    srv.setHandler(() => ({ status: 201, json: canned.createDeliveries() }));
    const cloud_info = { config: 'store-1', path: 'bucket/x' };
    await provider.createDeliveries({ deliveries: [{ catalog_ids: ['c1'], cloud_info }] });
    expect(last().body).toEqual({
      deliveries: [{ catalog_ids: ['c1'], order_item_ids: [], cloud_info }],
    });
    await spec.createDeliveries({ deliveries: [{ catalog_ids: ['c1'], cloud_info }] });
    expect(last().body).toEqual({ deliveries: [{ catalog_ids: ['c1'], cloud_info }] });
  });

  it('an index create goes without type for provider-v0', async () => {
    srv.setHandler(() => ({ status: 201, json: canned.createIndex() }));
    const index = buildCreateIndexRequest({ type: 'custom' });
    await provider.createIndex(index);
    expect(last().body).not.toHaveProperty('type');
    await spec.createIndex(index);
    expect(last().body).toHaveProperty('type', 'custom');
  });

  it('orders: provider-v0 requires usecase on every item, spec does not', async () => {
    srv.setHandler(() => ({ status: 201, json: canned.createOrder() }));
    const item = buildTaskingOrderItemInput.minimal() as never;
    const err = await provider.createOrder({ order_items: [item] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EoValidationError);
    expect((err as EoValidationError).details[0]).toMatchObject({
      path: 'order_items.0.usecase',
    });
    expect(srv.requests).toHaveLength(0);
    await spec.createOrder({ order_items: [item] });
    expect(srv.requests).toHaveLength(1);
  });

  it('a recurrence the profile does not list is a warning, not a rejection (the service decides)', async () => {
    srv.setHandler(() => ({ status: 201, json: canned.createOrder() }));
    const item = {
      ...buildTaskingOrderItemInput.minimal(),
      usecase: 'agriculture',
      recurrence: 'BIMONTHLY',
      no_of_occurrences: 3,
    };
    await provider.createOrder({ order_items: [item] } as never);
    expect(warnings).toHaveLength(0);
    expect(
      (last().body as { order_items: Array<{ recurrence: string }> }).order_items[0],
    ).toMatchObject({ recurrence: 'BIMONTHLY' });
    await spec.createOrder({ order_items: [item] } as never);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.warnings[0]).toMatchObject({ path: 'order_items.0.recurrence' });
    expect(warnings[0]!.warnings[0]!.message).toMatch(/BIMONTHLY.*sent anyway/);
    // NOT_APPLICABLE does not recur: an archive item may carry it.
    await provider.createOrder({
      order_items: [
        { ...buildArchiveOrderItemInput.minimal(), usecase: 'x', recurrence: 'NOT_APPLICABLE' },
      ],
    } as never);
  });
});

describe('read-backs', () => {
  it('provider-v0 reads a job under its workflow; without the workflow it asks nothing', async () => {
    srv.setHandler(() => ({ json: wire.job('job-1') }));
    const job = await provider.extensions.getJob({ id: 'job-1', workflow_id: 'wf-1' });
    expect(last().path).toBe('/v0/workflows/wf-1/jobs/job-1');
    expect(job).toMatchObject({ id: 'job-1' });
    srv.requests.length = 0;
    expect(await provider.extensions.getJob('job-1')).toBeNull();
    expect(srv.requests).toHaveLength(0);
    await spec.extensions.getJob({ id: 'job-1', workflow_id: 'wf-1' });
    expect(last().path).toBe('/v0/jobs/job-1');
  });

  it('provider-v0 picks the delivery whose delivery_id matches out of the list', async () => {
    const d = (id: string) => wire.delivery(id);
    srv.setHandler(() => ({ json: { deliveries: [d('other'), d('dl-7')] } }));
    const got = await provider.extensions.getDelivery('dl-7');
    expect(last().url).toBe('/v0/catalogs/deliveries?delivery_id=dl-7');
    expect(got).toMatchObject({ delivery_id: 'dl-7' });
    srv.setHandler(() => ({ json: { deliveries: [d('other')] } }));
    expect(await provider.extensions.getDelivery('dl-7')).toBeNull();
  });

  it('provider-v0 picks the visualization out of the AOI list; a list key missing is a clear error', async () => {
    const v = (id: string) => wire.visualization(id);
    srv.setHandler(() => ({ json: { visualization: [v('vis-2')], pagination: null } }));
    const got = await provider.extensions.getVisualization('aoi-1', 'vis-2');
    expect(last().url).toBe('/v0/aois/aoi-1/visualizations?visualization_id=vis-2');
    expect(got).toMatchObject({ id: 'vis-2' });
    srv.setHandler(() => ({ json: { visualizations: [] } }));
    const err = await provider.extensions.getVisualization('aoi-1', 'vis-2').catch((e) => e);
    expect(err).toBeInstanceOf(EoResponseError);
    expect((err as Error).message).toMatch(/"visualization" is missing/);
  });
});
