/**
 * Against the real service: the extension reads (`client.extensions`). A read the service does
 * not offer, or an id it does not know, is `null` (404), never an error; other failures throw.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../test/service';
import { createEoClient, EoApiError, type EoClient } from '../index';

let svc: TestService;
let client: EoClient;
const drift: unknown[] = [];
beforeAll(async () => {
  svc = await startService();
  client = createEoClient({
    baseUrl: svc.url,
    apiKey: svc.key,
    onSchemaDrift: (e) => drift.push(e),
  });
});
afterAll(async () => svc.close());

describe('client.extensions', () => {
  it('getJob re-reads a created job as the service advances it', async () => {
    const created = await client.createJob('wf-ndvi-timeseries', { project_id: 'prj-demo-crops' });
    const read = await client.extensions.getJob(created.id);
    expect(read).toMatchObject({ id: created.id, workflow_id: 'wf-ndvi-timeseries' });
    expect(read?.status).toBeTypeOf('string');
    expect(drift).toEqual([]);
  });

  it('getDelivery re-reads a delivery until the worker finishes it', async () => {
    const { catalogs } = await client.searchCatalogs({ limit: 1 });
    expect(catalogs).toHaveLength(1);
    const { deliveries } = await client.createDeliveries({
      deliveries: [{ catalog_ids: [catalogs[0]!.id], cloud_info: { config: 'demo', path: 'x/y' } }],
    });
    const id = deliveries[0]!.delivery_id;
    expect((await client.extensions.getDelivery(id))?.delivery_id).toBe(id);
    svc.server.app.ctx.worker.drain();
    expect((await client.extensions.getDelivery(id))?.status).toBe('SUCCESS');
  });

  it('getOrder re-reads an order with its items as the service pays and fulfils it', async () => {
    const { features } = await client.listArchiveItems('col-aurora-l2a', { limit: 1 });
    const scene = features[0]!;
    const [w, s, e, n] = scene.bbox!.map(Number) as [number, number, number, number];
    const ring = [
      [w, s],
      [e, s],
      [e, n],
      [w, n],
      [w, s],
    ];
    const created = await client.createOrder({
      order_items: [
        {
          project_id: 'prj-demo-crops',
          name: 'Read back',
          item_ids: [scene.id],
          geometry: {
            type: 'FeatureCollection',
            features: [
              {
                type: 'Feature',
                properties: {},
                geometry: { type: 'Polygon', coordinates: [ring] },
              },
            ],
          },
        },
      ],
    });
    expect(await client.extensions.getOrder(created.id)).toMatchObject({
      id: created.id,
      status: 'UNPAID',
    });
    svc.server.app.ctx.worker.drain();
    const read = await client.extensions.getOrder(created.id);
    expect(read?.status).toBe('PAID');
    expect(read?.order_items.map((i) => i.status)).toEqual(['COMPLETED']);
    expect(drift).toEqual([]);
  });

  it('unknown ids (or a service without the read) are null; a refused key still throws', async () => {
    expect(await client.extensions.getOrder('ord_unknown')).toBeNull();
    expect(await client.extensions.getJob('job_unknown')).toBeNull();
    expect(await client.extensions.getDelivery('dlv_unknown')).toBeNull();
    expect(await client.extensions.getVisualization('aoi_unknown', 'vis_unknown')).toBeNull();
    const stranger = createEoClient({ baseUrl: svc.url, apiKey: 'eok_not-a-key' });
    const e = await stranger.extensions.getJob('job_unknown').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(EoApiError);
    expect(e).toMatchObject({ status: 401, endpoint: 'getJob' });
    expect(String((e as Error).message)).not.toContain('eok_not-a-key');
  });
});
