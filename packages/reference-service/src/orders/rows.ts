/** Row shapes of the orders tables as raw SQL returns them (snake_case, instants in µs). */
import type { SqlRow } from '@eo/catalog-store';
import type { orders, orderItems, tasks } from './schema';

// Built in code and inserted by ORDER_COLUMNS etc. below: `seq` is the database's (creation
// order for lists), never written or read as a field.
export type OrderRow = Omit<SqlRow<typeof orders>, 'seq'>;
export type OrderItemRow = Omit<SqlRow<typeof orderItems>, 'seq'>;
export type TaskRow = Omit<SqlRow<typeof tasks>, 'seq'>;

/** `INSERT INTO <table> (cols) VALUES (@cols)` for a row shape. */
export function insertSql(table: string, columns: readonly string[]): string {
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`;
}

export const ORDER_COLUMNS = [
  'id',
  'org_id',
  'user_id',
  'created_by',
  'updated_by',
  'status',
  'total_amount',
  'refunded_amount',
  'transaction_id',
  'paid_at',
  'created_at',
  'updated_at',
  'wire_json',
  'wire_version',
] as const satisfies ReadonlyArray<keyof OrderRow>;

export const ORDER_ITEM_COLUMNS = [
  'id',
  'order_id',
  'position',
  'org_id',
  'project_id',
  'user_id',
  'created_by',
  'updated_by',
  'name',
  'type',
  'status',
  'payment_status',
  'feasibility_status',
  'last_feasibility_check',
  'area',
  'satellite_id',
  'bandset_json',
  'number_of_bands',
  'base_amount',
  'final_amount',
  'refunded_amount',
  'tokens_used',
  'transaction_id',
  'uplifts_json',
  'cloud_cover',
  'off_nadir',
  'cloud_delivery_json',
  'delivery_speed',
  'image_type',
  'recurrence',
  'usecase',
  'start_date',
  'end_date',
  'no_of_occurrences',
  'occurrences_json',
  'item_ids_json',
  'images_json',
  'geometry_json',
  'validation_errors_json',
  'created_at',
  'updated_at',
] as const satisfies ReadonlyArray<keyof OrderItemRow>;

export const TASK_COLUMNS = [
  'id',
  'order_item_id',
  'order_id',
  'org_id',
  'position',
  'type',
  'status',
  'delivery_status',
  'start_date',
  'end_date',
  'number_of_strips',
  'tokens_used',
  'transaction_id',
  'scene_id',
  'catalog_id',
  'failure_reason',
  'created_by',
  'updated_by',
  'created_at',
  'updated_at',
] as const satisfies ReadonlyArray<keyof TaskRow>;
