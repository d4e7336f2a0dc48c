/**
 * 4.8 POST /v0/orders, 4.9 GET /v0/orders and 4.1 GET /v0/order-items; the extension read
 * GET /v0/orders/{order_id} (the real service's: how a client follows an order's payment).
 */
import type { AppContext } from '../context';
import { RawJson, WithoutEffects, type Router } from '../http/endpoint';
import { ApiError } from '../http/errors';
import { fitPage, offsetPage } from '../http/pagination';
import { newId } from '../ids';
import { ORDER_PAYMENT_STEP, registerFulfilmentSteps } from './fulfilment';
import { cents } from './pricing';
import { quoteOrder, type QuotedItem } from './quote';
import { makeOrderQueries } from './repository';
import type { OrderItemRow, OrderRow } from './rows';
import { itemToWire, orderToWire } from './wire';

function itemRow(
  q: QuotedItem,
  orderId: string,
  orgId: string,
  userId: string,
  nowUs: number,
): OrderItemRow {
  const i = q.input;
  return {
    // Items of one order share created_at; ids that end in the position keep the list
    // order (created_at, id) equal to the request order.
    id: `oi_${orderId.slice('ord_'.length)}_${String(q.position).padStart(3, '0')}`,
    order_id: orderId,
    position: q.position,
    org_id: orgId,
    project_id: i.project_id,
    user_id: userId,
    created_by: userId,
    updated_by: userId,
    name: i.name,
    type: q.type,
    status: 'DRAFT',
    payment_status: 'UNPAID',
    feasibility_status: q.feasibility,
    last_feasibility_check: nowUs,
    area: Math.round(q.areaKm2 * 1e6) / 1e6,
    satellite_id: q.satellite.id,
    bandset_json: JSON.stringify(q.bandset),
    number_of_bands: q.bandset.bands.length,
    base_amount: q.price.baseAmount,
    final_amount: q.price.finalAmount,
    refunded_amount: 0,
    tokens_used: q.price.tokensUsed,
    transaction_id: null,
    uplifts_json: JSON.stringify(q.price.uplifts),
    cloud_cover: q.cloudCover,
    off_nadir: q.offNadir,
    cloud_delivery_json: i.cloud_delivery ? JSON.stringify(i.cloud_delivery) : null,
    delivery_speed: q.deliverySpeed,
    image_type: q.satellite.imageType,
    recurrence: q.recurrence,
    usecase: i.usecase ?? null,
    start_date: q.startDate,
    end_date: q.endDate,
    no_of_occurrences: q.noOfOccurrences,
    occurrences_json: q.windows ? JSON.stringify(q.windows) : null,
    item_ids_json: q.type === 'ARCHIVE' ? JSON.stringify(i.item_ids) : null,
    images_json: JSON.stringify(q.images),
    geometry_json: JSON.stringify(i.geometry),
    validation_errors_json: JSON.stringify(q.validationErrors),
    created_at: nowUs,
    updated_at: nowUs,
  };
}

export function registerOrderRoutes(router: Router, ctx: AppContext): void {
  const q = makeOrderQueries(ctx.sqlite, ctx.config.maxListPageBytes, ctx.config.ordersCacheBytes);
  registerFulfilmentSteps(ctx, q);

  router.create('createOrder', ({ principal, body }) => {
    const now = ctx.nowUs();
    const quoted = quoteOrder(ctx.sqlite, principal.orgId, now, body.order_items);
    const orderId = newId('ord');
    const items = quoted.map((item) =>
      itemRow(item, orderId, principal.orgId, principal.userId, now),
    );
    const order: OrderRow = {
      id: orderId,
      org_id: principal.orgId,
      user_id: principal.userId,
      created_by: principal.userId,
      updated_by: principal.userId,
      status: 'UNPAID',
      total_amount: cents(items.reduce((s, i) => s + i.final_amount, 0)),
      refunded_amount: 0,
      transaction_id: null,
      paid_at: null,
      created_at: now,
      updated_at: now,
      wire_json: Buffer.alloc(0),
      wire_version: 0,
    };
    const wire = orderToWire(order, items);
    order.wire_json = Buffer.from(JSON.stringify(wire));
    // A dry run prices and checks only: nothing is written, nothing is remembered.
    if (body.dry_run) return new WithoutEffects(wire, 200);
    q.insertOrder(order);
    for (const item of items) q.insertItem(item);
    ctx.worker.schedule(ORDER_PAYMENT_STEP, orderId);
    return wire;
  });

  // The hot list: sent as stored bytes (see orders.wire_json and wire-cache.ts); an unchanged
  // page is the same cached Buffer, so it is compressed once per coding (http/compression.ts).
  // Without the page cache it is parts, joined into a Buffer lent for the one response.
  router.read('listOrders', ({ principal, query }) => {
    const page = q.ordersPage(principal.orgId, query);
    return new RawJson(page, { reused: Buffer.isBuffer(page) });
  });

  router.readExtension('getOrder', ({ principal, params }) => {
    const order = q.order(params.order_id);
    // Another organisation's order is unknown here, never revealed.
    if (!order || order.org_id !== principal.orgId)
      throw ApiError.notFound('order', params.order_id);
    return orderToWire(order, q.itemsOfOrder(order.id));
  });

  router.readExtension('getOrderItem', ({ principal, params }) => {
    const item = q.item(params.id);
    if (!item || item.org_id !== principal.orgId) throw ApiError.notFound('order item', params.id);
    return itemToWire(item, q.tasksOfItem(item.id));
  });

  router.read('listOrderItems', ({ principal, query }) => {
    const { rows: all, total } = q.listOrderItems(principal.orgId, query);
    // Geometries and images dominate an item's size on the wire.
    const { rows, limit } = fitPage(
      all,
      query.limit,
      (r) => r.geometry_json.length + r.images_json.length + 2048,
      ctx.config.maxListPageBytes,
    );
    const tasks = q.tasksByItem(rows.map((r) => r.id));
    return {
      order_items: rows.map((r) => itemToWire(r, tasks.get(r.id) ?? [])),
      pagination: offsetPage(limit, query.offset, total),
    };
  });
}
