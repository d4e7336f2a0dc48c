/** Service profiles: values, client-side rules and wire shapes of `spec` and `provider-v0`. */
import { describe, expect, it } from 'vitest';
import {
  clientRequestSchema,
  CreateOrderRequest,
  endpoints,
  OrderItem,
  orderItemTypeOf,
  parseServiceDialect,
  requestWarnings,
  SERVICE_DIALECTS,
  SERVICE_PROFILES,
  toWireBody,
} from '../index';
import { buildArchiveOrderItemInput, buildOrderItem } from '../testing';

describe('the profiles', () => {
  it('list the provider values the real document gives', () => {
    const p = SERVICE_PROFILES['provider-v0'];
    expect(p.recurrences).toEqual(['ONCE', 'MONTHLY', 'BIMONTHLY', 'QUARTERLY', 'NOT_APPLICABLE']);
    expect(p.orderItemStatuses).toContain('PARTIALLY_FULFILLED');
    expect(p.feasibilityStatuses).toEqual(
      expect.arrayContaining(['NOT_APPLICABLE', 'UNSPECIFIED']),
    );
    expect(p.assetTypes).toEqual(['mosaic', 'stac_item', 'visualization']);
    expect(SERVICE_PROFILES.spec.sourceAssetTypes).toEqual(['scene']);
  });

  it('parse a dialect name, or say which ones exist', () => {
    for (const d of SERVICE_DIALECTS) expect(parseServiceDialect(` ${d} `)).toBe(d);
    expect(() => parseServiceDialect('v1')).toThrow(
      /unknown service dialect 'v1': use spec or provider-v0/,
    );
  });
});

describe('responses of either service read without drift', () => {
  it.each(['FULFILLED', 'PARTIALLY_FULFILLED', 'COMPLETED'])('order item status %s', (status) => {
    expect(OrderItem.safeParse(buildOrderItem({ status: status as never })).success).toBe(true);
  });
  it.each(['NOT_APPLICABLE', 'UNSPECIFIED'])('feasibility status %s', (f) => {
    const item = buildOrderItem({ feasibility_status: f as never });
    expect(OrderItem.safeParse(item).success).toBe(true);
  });
});

describe('client-side rules', () => {
  const archive = () => buildArchiveOrderItemInput.minimal();

  it('our service keeps its closed recurrence list; a client only needs a non-empty string', () => {
    const body = { order_items: [{ ...archive(), recurrence: 'NOT_APPLICABLE' }] };
    expect(CreateOrderRequest.safeParse(body).success).toBe(false);
    expect(clientRequestSchema('spec', 'createOrder', 'body')!.safeParse(body).success).toBe(true);
    expect(clientRequestSchema('spec', 'listOrders', 'query')).toBe(endpoints.listOrders.query);
  });

  it("order items filter by the profile's statuses", () => {
    const q = { status: 'FULFILLED,ACTIVE' };
    expect(
      clientRequestSchema('provider-v0', 'listOrderItems', 'query')!.safeParse(q).success,
    ).toBe(true);
    expect(clientRequestSchema('spec', 'listOrderItems', 'query')!.safeParse(q).success).toBe(
      false,
    );
  });

  it('NOT_APPLICABLE does not recur (an archive item may carry it); BIMONTHLY does', () => {
    expect(orderItemTypeOf({ recurrence: 'NOT_APPLICABLE' })).toBe('TASKING');
    expect(orderItemTypeOf({ recurrence: 'BIMONTHLY' })).toBe('RECURRING');
  });

  it('provider-v0 needs usecase on each item', () => {
    const schema = clientRequestSchema('provider-v0', 'createOrder', 'body')!;
    const r = schema.safeParse({ order_items: [archive()] });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.path).toEqual(['order_items', 0, 'usecase']);
    expect(schema.safeParse({ order_items: [{ ...archive(), usecase: 'forestry' }] }).success).toBe(
      true,
    );
  });

  it('warns about open values the profile does not list, per item', () => {
    const body = {
      order_items: [
        { recurrence: 'DAILY', delivery_speed: 'STANDARD' },
        { recurrence: 'QUARTERLY', delivery_speed: 'EXPRESS' },
      ],
    };
    expect(requestWarnings('provider-v0', 'createOrder', body).map((w) => w.path)).toEqual([
      'order_items.0.recurrence',
      'order_items.1.delivery_speed',
    ]);
    expect(requestWarnings('spec', 'createOrder', body).map((w) => w.path)).toEqual([
      'order_items.1.recurrence',
    ]);
    expect(requestWarnings('spec', 'listOrders', body)).toEqual([]);
  });
});

describe('wire shapes', () => {
  it('spec sends every body unchanged', () => {
    const body = { satellite: { collection_id: 'c', satellite_id: 's' }, skip: 0 };
    expect(toWireBody('spec', 'searchSatelliteImages', body)).toBe(body);
  });

  it('provider-v0 leaves the bodies that do not differ alone', () => {
    const body = { index_id: 'i', src_asset_ids: ['a'] };
    expect(toWireBody('provider-v0', 'createVisualization', body)).toBe(body);
  });

  it('provider-v0 keeps the other catalog search fields and the caller’s object intact', () => {
    const body = { limit: 5, sort_by: [{ field: 'id', direction: 'desc' }] };
    const copy = JSON.parse(JSON.stringify(body)) as typeof body;
    expect(toWireBody('provider-v0', 'searchCatalogs', body)).toEqual({
      limit: 5,
      sort_by: [{ id: 'DESC' }],
    });
    expect(body).toEqual(copy);
  });
});
