/**
 * Every enum of the spec's part 3 (and the closed sets of part 2), defined once.
 * Each is a `const` tuple (for iteration and SQL CHECK lists) plus its zod schema and type.
 *
 * Fields whose allowed values the spec does not show (2.14) are *open strings* in response
 * schemas; the values our reference service produces for them are listed in `known-values.ts`.
 */
import { z } from 'zod';

function enumOf<const T extends readonly [string, ...string[]]>(values: T) {
  return { values, schema: z.enum(values) };
}

export const ORDER_STATUSES = ['PAID', 'REFUND', 'UNPAID', 'PAYMENT_IN_PROGRESS'] as const;
export const OrderStatus = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof OrderStatus>;

export const ORDER_ITEM_TYPES = ['TASKING', 'ARCHIVE', 'RECURRING'] as const;
export const OrderItemType = z.enum(ORDER_ITEM_TYPES);
export type OrderItemType = z.infer<typeof OrderItemType>;

export const ORDER_ITEM_STATUSES = [
  'DRAFT',
  'ACTIVE',
  'COMPLETED',
  'CANCELLED',
  'FAILED',
  'PARTIALLY_COMPLETED',
] as const;
export const OrderItemStatus = z.enum(ORDER_ITEM_STATUSES);
export type OrderItemStatus = z.infer<typeof OrderItemStatus>;

/**
 * Order item statuses of the provider's service (`provider-v0` in `dialect.ts`): it says FULFILLED
 * where ours says COMPLETED. Responses accept the values of every service profile, so a record
 * of either service reads without drift; our service writes and filters by its own list only.
 */
export const PROVIDER_ORDER_ITEM_STATUSES = [
  'DRAFT',
  'ACTIVE',
  'FULFILLED',
  'CANCELLED',
  'FAILED',
  'PARTIALLY_FULFILLED',
] as const;
export const AnyOrderItemStatus = z.enum([
  ...ORDER_ITEM_STATUSES,
  'FULFILLED',
  'PARTIALLY_FULFILLED',
]);
export type AnyOrderItemStatus = z.infer<typeof AnyOrderItemStatus>;

export const PAYMENT_STATUSES = [
  'PAID',
  'PARTIAL-REFUND',
  'REFUND',
  'UNPAID',
  'PARTIAL-MONTHLY',
] as const;
export const PaymentStatus = z.enum(PAYMENT_STATUSES);
export type PaymentStatus = z.infer<typeof PaymentStatus>;

export const FEASIBILITY_STATUSES = ['FAILED', 'WEAK_SUCCESS', 'SUCCESS'] as const;
export const FeasibilityStatus = z.enum(FEASIBILITY_STATUSES);
export type FeasibilityStatus = z.infer<typeof FeasibilityStatus>;

/** The provider's service adds NOT_APPLICABLE and UNSPECIFIED (read without drift, as above). */
export const PROVIDER_FEASIBILITY_STATUSES = [
  'NOT_APPLICABLE',
  'FAILED',
  'WEAK_SUCCESS',
  'SUCCESS',
  'UNSPECIFIED',
] as const;
export const AnyFeasibilityStatus = z.enum([
  ...FEASIBILITY_STATUSES,
  'NOT_APPLICABLE',
  'UNSPECIFIED',
]);

export const AOI_STATUSES = [
  'success',
  'started',
  'running',
  'failed',
  'updating',
  'partial_success',
] as const;
export const AoiStatus = z.enum(AOI_STATUSES);
export type AoiStatus = z.infer<typeof AoiStatus>;

export const VISUALIZATION_STATUSES = ['creating', 'success', 'failed', 'partial_success'] as const;
export const VisualizationStatus = z.enum(VISUALIZATION_STATUSES);
export type VisualizationStatus = z.infer<typeof VisualizationStatus>;

export const EXPRESSION_TYPES = ['composite', 'index', 'grayscale'] as const;
export const ExpressionType = z.enum(EXPRESSION_TYPES);
export type ExpressionType = z.infer<typeof ExpressionType>;

export const INDEX_TYPES = ['custom', 'preset'] as const;
export const IndexType = z.enum(INDEX_TYPES);
export type IndexType = z.infer<typeof IndexType>;

/** Visualization `type`: the spec lists only `custom`. */
export const VISUALIZATION_TYPES = ['custom'] as const;
export const VisualizationType = z.enum(VISUALIZATION_TYPES);
export type VisualizationType = z.infer<typeof VisualizationType>;

export const SORT_DIRECTIONS = ['asc', 'desc'] as const;
export const SortDirection = z.enum(SORT_DIRECTIONS);
export type SortDirection = z.infer<typeof SortDirection>;

/** Every enum above by name, for docs, SQL CHECK constraints and exhaustive tests. */
export const ENUMS = {
  OrderStatus: enumOf(ORDER_STATUSES),
  OrderItemType: enumOf(ORDER_ITEM_TYPES),
  OrderItemStatus: enumOf(ORDER_ITEM_STATUSES),
  PaymentStatus: enumOf(PAYMENT_STATUSES),
  FeasibilityStatus: enumOf(FEASIBILITY_STATUSES),
  AoiStatus: enumOf(AOI_STATUSES),
  VisualizationStatus: enumOf(VISUALIZATION_STATUSES),
  ExpressionType: enumOf(EXPRESSION_TYPES),
  IndexType: enumOf(INDEX_TYPES),
  VisualizationType: enumOf(VISUALIZATION_TYPES),
  SortDirection: enumOf(SORT_DIRECTIONS),
} as const;
