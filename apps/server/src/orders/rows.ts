/** Row shapes of the orders tables as raw SQL returns them (snake_case, instants in µs). */

export interface OrderRow {
  id: string;
  org_id: string;
  user_id: string;
  created_by: string;
  updated_by: string;
  status: string;
  total_amount: number;
  refunded_amount: number;
  transaction_id: string | null;
  paid_at: number | null;
  created_at: number;
  updated_at: number;
  /** The rendered wire order, UTF-8 JSON (see schema.ts). */
  wire_json: Buffer;
  wire_version: number;
}

export interface OrderItemRow {
  id: string;
  order_id: string;
  position: number;
  org_id: string;
  project_id: string;
  user_id: string;
  created_by: string;
  updated_by: string;
  name: string;
  type: string;
  status: string;
  payment_status: string;
  feasibility_status: string;
  last_feasibility_check: number;
  area: number;
  satellite_id: string;
  bandset_json: string;
  number_of_bands: number;
  base_amount: number;
  final_amount: number;
  refunded_amount: number;
  tokens_used: number;
  transaction_id: string | null;
  uplifts_json: string;
  cloud_cover: number | null;
  off_nadir: number | null;
  cloud_delivery_json: string | null;
  delivery_speed: string;
  image_type: string;
  recurrence: string;
  usecase: string | null;
  start_date: number | null;
  end_date: number | null;
  no_of_occurrences: number;
  occurrences_json: string | null;
  item_ids_json: string | null;
  images_json: string;
  geometry_json: string;
  validation_errors_json: string;
  created_at: number;
  updated_at: number;
}

export interface TaskRow {
  id: string;
  order_item_id: string;
  order_id: string;
  org_id: string;
  position: number;
  type: string;
  status: string;
  delivery_status: string;
  start_date: number;
  end_date: number;
  number_of_strips: number;
  tokens_used: number;
  transaction_id: string | null;
  scene_id: string | null;
  catalog_id: string | null;
  failure_reason: string | null;
  created_by: string;
  updated_by: string;
  created_at: number;
  updated_at: number;
}

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
