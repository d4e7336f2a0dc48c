/**
 * Against the real service: orders, order items and deliveries (on main since h/orders).
 * Tasking orders need no archive scenes, so the whole create -> list -> deliver path runs here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from '../../test/service';
import {
  allItems,
  createEoClient,
  EoApiError,
  EoValidationError,
  type BodyInput,
  type EoClient,
} from '../index';

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

async function apiError(p: Promise<unknown>): Promise<EoApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof EoApiError) return e;
    throw e;
  }
  throw new Error('expected an EoApiError');
}

type OrderItemIn = BodyInput<'createOrder'>['order_items'][number];

/** A tasking item over ~110 km² near Bologna, in the future. */
function taskingItem(over: Partial<OrderItemIn> = {}): OrderItemIn {
  const [w, s, e, n] = [11.3, 44.45, 11.425, 44.55];
  return {
    project_id: 'prj-demo-crops',
    name: 'Field survey',
    geometry: {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [w, s],
                [e, s],
                [e, n],
                [w, n],
                [w, s],
              ],
            ],
          },
        },
      ],
    },
    start_date: '2030-06-01T00:00:00Z',
    end_date: '2030-06-30T00:00:00Z',
    ...over,
  };
}

describe('orders', () => {
  it('creates an order (201): typed, priced, its items DRAFT', async () => {
    const order = await client.createOrder({
      order_items: [taskingItem({ usecase: 'agriculture' })],
    });
    expect(order.id).toMatch(/^ord_/);
    expect(order.status).toBe('UNPAID');
    expect(order.order_items).toHaveLength(1);
    expect(order.order_items[0]).toMatchObject({
      order_id: order.id,
      type: 'TASKING',
      status: 'DRAFT',
      usecase: 'agriculture',
    });
  });
  it('a dry run answers the would-be order and stores nothing', async () => {
    const before = (await client.listOrders({ limit: 1 })).pagination.total;
    const quote = await client.createOrder({ order_items: [taskingItem()], dry_run: true });
    expect(quote.order_items).toHaveLength(1);
    expect((await client.listOrders({ limit: 1 })).pagination.total).toBe(before);
  });
  it('lists and pages orders and order items, filtered', async () => {
    const created = [];
    for (let i = 0; i < 5; i++) {
      created.push(await client.createOrder({ order_items: [taskingItem({ name: `page ${i}` })] }));
    }
    const { pagination } = await client.listOrders({ limit: 1 });
    const pages = [];
    for await (const p of client.pages.orders({}, { pageSize: 2 })) pages.push(p);
    expect(pages.every((p) => p.total === pagination.total)).toBe(true);
    const ids = pages.flatMap((p) => p.items.map((o) => o.id));
    expect(new Set(ids).size).toBe(pagination.total);
    expect(ids).toEqual(expect.arrayContaining(created.map((o) => o.id)));

    const orderIds = created.slice(0, 3).map((o) => o.id);
    const items = [];
    for await (const item of allItems(
      client.pages.orderItems({ order_ids: orderIds, type: ['TASKING'] }, { pageSize: 2 }),
    )) {
      items.push(item);
    }
    expect(items.map((i) => i.order_id).sort()).toEqual([...orderIds].sort());
    expect(items.every((i) => Array.isArray(i.tasks))).toBe(true);
  });
  it('client-side validation catches what the domain rejects, with paths', async () => {
    const e = await client
      .createOrder({
        order_items: [
          taskingItem({ start_date: '2030-06-30T00:00:00Z', end_date: '2030-06-01T00:00:00Z' }),
        ],
      })
      .catch((x: unknown) => x);
    expect(e).toBeInstanceOf(EoValidationError);
    expect((e as EoValidationError).details).toEqual([
      expect.objectContaining({ path: 'order_items.0.end_date', in: 'body' }),
    ]);
  });
  it("the service's checks come back with their paths (unknown projects)", async () => {
    const e = await apiError(
      client.createOrder({
        order_items: [taskingItem(), taskingItem({ project_id: 'prj-nope' })],
      }),
    );
    expect(e).toMatchObject({ status: 400, code: 'validation_failed', attempts: 1 });
    expect(e.details?.map((d) => d.path)).toEqual(['order_items.1.project_id']);
  });
});

describe('deliveries', () => {
  it('requests delivery of an order item (201) and is idempotent with a key', async () => {
    const order = await client.createOrder({ order_items: [taskingItem({ name: 'deliver' })] });
    const body = {
      deliveries: [
        {
          order_item_ids: [order.order_items[0]!.id],
          cloud_info: { config: 's3-default', path: 'field/deliveries' },
        },
      ],
    };
    const a = await client.createDeliveries(body, { idempotencyKey: 'dlv-key-1' });
    expect(a.deliveries.length).toBeGreaterThan(0);
    expect(a.deliveries[0]!.status).toBeTruthy();
    const b = await client.createDeliveries(body, { idempotencyKey: 'dlv-key-1' });
    expect(b.deliveries.map((d) => d.delivery_id)).toEqual(a.deliveries.map((d) => d.delivery_id));
  });
  it('unknown ids: the 404 names each with its path', async () => {
    const e = await apiError(
      client.createDeliveries({
        deliveries: [
          { catalog_ids: ['cat-missing'], cloud_info: { config: 's3-default', path: 'x' } },
        ],
      }),
    );
    expect(e).toMatchObject({ status: 404, code: 'not_found' });
    expect(e.details?.[0]).toMatchObject({ path: 'deliveries.0.catalog_ids.0' });
  });
});

describe('the service matches the domain schemas', () => {
  it('no response above drifted', () => {
    expect(drift).toEqual([]);
  });
});
