/**
 * How a property path in `query` and `sort_by` names a value of a catalog record (our choice;
 * the spec says only "a property path"):
 *
 * - `properties.<key>` or a bare `<key>` that is not a record field -> `details.properties[<key>]`
 *   (so `eo:cloud_cover` and `properties.eo:cloud_cover` are the same);
 * - `id` -> the record id; `item_id` -> the STAC item id; `collection` -> `details.collection`;
 * - record fields `area`, `bandset_id`, `task_id`, `delivery_status`, `created_at`, `updated_at`.
 */
export const RECORD_FIELDS = [
  'id',
  'item_id',
  'collection',
  'area',
  'bandset_id',
  'task_id',
  'delivery_status',
  'created_at',
  'updated_at',
] as const;
export type RecordField = (typeof RECORD_FIELDS)[number];

export type ResolvedPath =
  { kind: 'record'; field: RecordField } | { kind: 'property'; key: string };

export function resolvePath(path: string): ResolvedPath {
  if (path.startsWith('properties.'))
    return { kind: 'property', key: path.slice('properties.'.length) };
  if ((RECORD_FIELDS as readonly string[]).includes(path))
    return { kind: 'record', field: path as RecordField };
  return { kind: 'property', key: path };
}

/** Properties and fields holding timestamps: compared as instants, not as text. */
const TIMESTAMP_PROPERTIES = new Set([
  'datetime',
  'created',
  'updated',
  'start_datetime',
  'end_datetime',
]);
const TIMESTAMP_FIELDS = new Set<string>(['created_at', 'updated_at']);

export function isTimestampProperty(path: string): boolean {
  const r = resolvePath(path);
  return r.kind === 'property' ? TIMESTAMP_PROPERTIES.has(r.key) : TIMESTAMP_FIELDS.has(r.field);
}
