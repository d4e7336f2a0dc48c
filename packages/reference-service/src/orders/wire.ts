/** Rows -> wire shapes of spec 2.3 (Order), 2.4 (Order item) and 2.5 (Task). */
import type { Order, OrderItem, Task } from '@eo/domain';
import { isoTimestamp } from '@eo/domain';
import type { z } from 'zod';
import { toIso, toIsoOrNull, toTaskDate } from '../time';
import type { OrderItemRow, OrderRow, TaskRow } from './rows';

export type OrderOut = z.input<typeof Order>;
export type OrderItemOut = z.input<typeof OrderItem>;
export type TaskOut = z.input<typeof Task>;

const parse = <T>(s: string | null): T | null => (s === null ? null : (JSON.parse(s) as T));

/** Occurrence windows are written with an explicit `+00:00` offset (spec 2.4). */
export const toOffsetIso = (us: number): string =>
  isoTimestamp.format(us, { offset: '+00:00', fractionDigits: 6 });

export function taskToWire(t: TaskRow): TaskOut {
  return {
    id: t.id,
    order_item_id: t.order_item_id,
    type: t.type,
    status: t.status,
    delivery_status: t.delivery_status,
    start_date: toTaskDate(t.start_date),
    end_date: toTaskDate(t.end_date),
    number_of_strips: t.number_of_strips,
    tokens_used: t.tokens_used,
    transaction_id: t.transaction_id,
    item_id: t.scene_id,
    catalog_id: t.catalog_id,
    failure_reason: t.failure_reason,
    created_at: toIso(t.created_at),
    updated_at: toIso(t.updated_at),
    created_by: t.created_by,
    updated_by: t.updated_by,
  };
}

/** An order item; `tasks` only where the spec shows them (the order item list). */
export function itemToWire(r: OrderItemRow, tasks?: readonly TaskRow[]): OrderItemOut {
  const out: OrderItemOut = {
    id: r.id,
    name: r.name,
    order_id: r.order_id,
    org_id: r.org_id,
    project_id: r.project_id,
    user_id: r.user_id,
    type: r.type as OrderItemOut['type'],
    status: r.status as OrderItemOut['status'],
    payment_status: r.payment_status as OrderItemOut['payment_status'],
    feasibility_status: r.feasibility_status as OrderItemOut['feasibility_status'],
    last_feasibility_check: toIso(r.last_feasibility_check),
    area: r.area,
    satellite_id: r.satellite_id,
    bandset: parse(r.bandset_json),
    number_of_bands: r.number_of_bands,
    base_amount: r.base_amount,
    final_amount: r.final_amount,
    refunded_amount: r.refunded_amount,
    tokens_used: r.tokens_used,
    transaction_id: r.transaction_id,
    uplifts: parse(r.uplifts_json),
    cloud_cover: r.cloud_cover,
    off_nadir: r.off_nadir,
    cloud_delivery: parse(r.cloud_delivery_json),
    delivery_speed: r.delivery_speed,
    image_type: r.image_type,
    recurrence: r.recurrence,
    usecase: r.usecase,
    start_date: toIsoOrNull(r.start_date),
    end_date: toIsoOrNull(r.end_date),
    no_of_occurrences: r.no_of_occurrences,
    occurrences:
      parse<Array<{ start: number; end: number }>>(r.occurrences_json)?.map((w) => ({
        start: toOffsetIso(w.start),
        end: toOffsetIso(w.end),
      })) ?? null,
    images: parse(r.images_json),
    geometry: parse(r.geometry_json),
    validation_errors: parse(r.validation_errors_json),
    created_at: toIso(r.created_at),
    updated_at: toIso(r.updated_at),
    created_by: r.created_by,
    updated_by: r.updated_by,
  };
  if (tasks) out.tasks = tasks.map(taskToWire);
  return out;
}

export function orderToWire(o: OrderRow, items: readonly OrderItemRow[]): OrderOut {
  return {
    id: o.id,
    created_at: toIso(o.created_at),
    updated_at: toIso(o.updated_at),
    created_by: o.created_by,
    updated_by: o.updated_by,
    user_id: o.user_id,
    org_id: o.org_id,
    order_items: items.map((i) => itemToWire(i)),
    paid_at: toIsoOrNull(o.paid_at),
    status: o.status as OrderOut['status'],
    total_amount: o.total_amount,
    refunded_amount: o.refunded_amount,
    transaction_id: o.transaction_id,
  };
}
