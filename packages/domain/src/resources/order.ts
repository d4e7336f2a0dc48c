/**
 * Orders, order items and their tasks (spec 2.3, 2.4, 2.5).
 *
 * Response schemas: unknown fields are kept (a real service adds fields). Identity and state
 * fields are required; every other field may be missing or null, because a service omits
 * what does not apply (an archive item has no recurrence, an unpaid order no paid_at).
 */
import { z } from 'zod';
import {
  AnyFeasibilityStatus,
  AnyOrderItemStatus,
  OrderItemType,
  OrderStatus,
  PaymentStatus,
} from '../enums';
import { GeometryOrFeatureCollection, Geometry } from '../geometry';
import { IsoTimestamp, TaskDate } from '../time/schemas';
import { CloudDelivery, Id } from './common';

export const BandsetBand = z.looseObject({ name: z.string(), wavelength: z.number() });
export const Bandset = z.looseObject({
  bandset_id: z.string(),
  bands: z.array(BandsetBand).nullish(),
  custom: z.array(z.array(z.number())).nullish(),
});
export type Bandset = z.infer<typeof Bandset>;

export const Uplift = z.looseObject({
  amount: z.number(),
  item_id: z.string(),
  percentage: z.number(),
  subtitle: z.string(),
  title: z.string(),
});
export type Uplift = z.infer<typeof Uplift>;

/** An occurrence window of a recurring item (ISO 8601 with offset). */
export const Occurrence = z.looseObject({ start: IsoTimestamp, end: IsoTimestamp });
export type Occurrence = z.infer<typeof Occurrence>;

export const OrderItemImage = z.looseObject({ geometry: z.unknown(), item_id: z.string() });
export type OrderItemImage = z.infer<typeof OrderItemImage>;

/**
 * Items of `validation_errors`: structure not shown (spec 2.14), so any object is accepted.
 * Our service writes `{ code, field, message }`.
 */
export const OrderItemValidationError = z.record(z.string(), z.unknown());
export type OrderItemValidationError = z.infer<typeof OrderItemValidationError>;

export const Task = z.looseObject({
  id: Id,
  order_item_id: z.string(),
  type: z.string().nullish(),
  status: z.string().nullish(),
  delivery_status: z.string().nullish(),
  start_date: TaskDate.nullish(),
  end_date: TaskDate.nullish(),
  number_of_strips: z.number().int().nullish(),
  tokens_used: z.number().nullish(),
  transaction_id: z.string().nullish(),
  created_at: IsoTimestamp.nullish(),
  updated_at: IsoTimestamp.nullish(),
  created_by: z.string().nullish(),
  updated_by: z.string().nullish(),
});
export type Task = z.infer<typeof Task>;

export const OrderItem = z.looseObject({
  id: Id,
  name: z.string().nullish(),
  order_id: z.string(),
  org_id: z.string().nullish(),
  project_id: z.string().nullish(),
  user_id: z.string().nullish(),
  type: OrderItemType,
  status: AnyOrderItemStatus,
  payment_status: PaymentStatus.nullish(),
  feasibility_status: AnyFeasibilityStatus.nullish(),
  last_feasibility_check: IsoTimestamp.nullish(),
  area: z.number().nullish(),
  bandset: Bandset.nullish(),
  number_of_bands: z.number().int().nullish(),
  base_amount: z.number().nullish(),
  final_amount: z.number().nullish(),
  tokens_used: z.number().nullish(),
  transaction_id: z.string().nullish(),
  uplifts: z.array(Uplift).nullish(),
  cloud_cover: z.number().nullish(),
  off_nadir: z.number().nullish(),
  cloud_delivery: CloudDelivery.nullish(),
  delivery_speed: z.string().nullish(),
  image_type: z.string().nullish(),
  recurrence: z.string().nullish(),
  usecase: z.string().nullish(),
  start_date: IsoTimestamp.nullish(),
  end_date: IsoTimestamp.nullish(),
  no_of_occurrences: z.number().int().nullish(),
  occurrences: z.array(Occurrence).nullish(),
  images: z.array(OrderItemImage).nullish(),
  /** Not in the spec's field table but an input; services commonly echo it back. */
  geometry: GeometryOrFeatureCollection.nullish(),
  tasks: z.array(Task).nullish(),
  validation_errors: z.array(OrderItemValidationError).nullish(),
  created_at: IsoTimestamp.nullish(),
  updated_at: IsoTimestamp.nullish(),
  created_by: z.string().nullish(),
  updated_by: z.string().nullish(),
});
export type OrderItem = z.infer<typeof OrderItem>;

export const Order = z.looseObject({
  id: Id,
  created_at: IsoTimestamp,
  updated_at: IsoTimestamp.nullish(),
  created_by: z.string().nullish(),
  updated_by: z.string().nullish(),
  user_id: z.string().nullish(),
  org_id: z.string().nullish(),
  order_items: z.array(OrderItem).default([]),
  paid_at: IsoTimestamp.nullish(),
  status: OrderStatus,
  total_amount: z.number().nullish(),
  transaction_id: z.string().nullish(),
});
export type Order = z.infer<typeof Order>;

/** Re-exported so a consumer can type an item's `images[].geometry` when it is a geometry. */
export { Geometry };
