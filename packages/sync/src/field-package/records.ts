/**
 * The mirror's records as a field package stores them, one resource at a time: the JSON the
 * service sent (orders, order items, AOIs, assets, indices, catalog records, and what this
 * client created), or, for tables the mirror fills itself (reference lists, archive scenes and
 * the saved archive searches' lists), the row as it is. Each with its change time in µs
 * (`updated_at`, read leniently; the archive's own stamps): records newer by it win a merge.
 */
import { COMPACT_LAYOUT } from '@eo/catalog-store';
import { readInstant, type FieldPackageResource } from '@eo/domain';
import type Database from 'better-sqlite3';

export interface PackagedRecord {
  readonly json: string;
  /** µs; null when the record says nothing of when it changed. */
  readonly updatedAtUs: number | null;
}

/** The change time of a record: a wire record's `updated_at`, an archive row's own stamps. */
export function changeTimeOf(resource: FieldPackageResource, record: unknown): number | null {
  if (typeof record !== 'object' || record === null) return null;
  const r = record as Record<string, unknown>;
  switch (resource) {
    case 'reference':
      return null;
    case 'archiveScenes':
      return typeof r.received_at_us === 'number' ? r.received_at_us : null;
    case 'archiveSearches':
      return typeof r.attempted_at_us === 'number' ? r.attempted_at_us : null;
    default:
      return readInstant(r.updated_at);
  }
}

/** How each resource's record is read from the mirror, by its id in the package. */
const READS: Record<FieldPackageResource, string> = {
  orders: 'SELECT json FROM mirror_orders WHERE id = ?',
  orderItems: 'SELECT json FROM mirror_order_items WHERE id = ?',
  aois: 'SELECT json FROM mirror_aois WHERE aoi_id = ?',
  assets: 'SELECT json FROM mirror_assets WHERE id = ?',
  indices: 'SELECT json FROM mirror_indices WHERE id = ?',
  // Packed (the compact layout): read back as the text it was sent as.
  catalogs: `SELECT ${COMPACT_LAYOUT.recordSql} AS json FROM catalog_records c WHERE c.id = ?`,
  visualizations: 'SELECT json FROM mirror_visualizations WHERE id = ?',
  deliveries: 'SELECT json FROM mirror_deliveries WHERE id = ?',
  jobs: 'SELECT json FROM mirror_jobs WHERE id = ?',
  // `["project","prj-1"]`: the row, its JSON kept as text.
  reference: `SELECT json_object('kind', kind, 'id', id, 'name', name, 'json', json) AS json
    FROM mirror_reference WHERE json_array(kind, id) = ?`,
  archiveScenes: `SELECT json_object('id', id, 'collection_id', collection_id,
      'satellite_id', satellite_id, 'datetime_us', datetime_us, 'cloud_cover', cloud_cover,
      'min_lon', min_lon, 'min_lat', min_lat, 'max_lon', max_lon, 'max_lat', max_lat,
      'json', json, 'received_at_us', received_at_us) AS json
    FROM mirror_archive_scenes WHERE id = ?`,
  archiveSearches: `SELECT json_object('search_id', search_id, 'name', name, 'plan', plan,
      'received', received, 'total', total, 'incomplete', incomplete, 'drift', drift,
      'skipped', skipped, 'attempted_at_us', attempted_at_us,
      'last_complete_at_us', last_complete_at_us, 'last_error_json', last_error_json,
      'scenes', (SELECT json_group_array(scene_id) FROM (SELECT scene_id
        FROM mirror_archive_search_scenes l WHERE l.search_id = s.search_id ORDER BY rank))) AS json
    FROM mirror_archive_searches s WHERE search_id = ?`,
};

export function makeRecordReads(sqlite: Database.Database) {
  const statements = Object.fromEntries(
    Object.entries(READS).map(([r, sql]) => [r, sqlite.prepare(sql).pluck()]),
  ) as Record<FieldPackageResource, Database.Statement<[string], string>>;
  return {
    /** The record as packaged, or null when the mirror no longer holds it. */
    read(resource: FieldPackageResource, id: string): PackagedRecord | null {
      const json = statements[resource].get(id);
      if (json === undefined) return null;
      return { json, updatedAtUs: changeTimeOf(resource, JSON.parse(json) as unknown) };
    },
  };
}
