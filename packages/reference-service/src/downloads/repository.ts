/** SQL of downloads, and the lookups a download request needs, scoped to an organisation. */
import type { SqlRow } from '@eo/catalog-store';
import type Database from 'better-sqlite3';
import type { downloads } from './schema';

export type DownloadRow = Omit<SqlRow<typeof downloads>, 'seq'>;

/** A download's scene: an archive scene (global) or a catalog record (the org's). */
export type { SceneRef } from '../imagery/cog';

export type RequestedField = 'catalog_ids' | 'order_item_ids' | 'asset_ids';

export interface TaskOfItem {
  id: string;
  status: string;
  catalog_id: string | null;
  failure_reason: string | null;
}

export interface AssetRef {
  id: string;
  aoi_id: string;
  asset_type: string;
  source_item_id: string | null;
  status: string;
}

export function makeDownloadQueries(sqlite: Database.Database) {
  const insert = sqlite.prepare(
    `INSERT INTO downloads (id, org_id, aoi_id, requested_field, requested_ids_json, status, reason,
       scenes_json, created_by, created_at, updated_at)
     VALUES (@id, @org_id, @aoi_id, @requested_field, @requested_ids_json, @status, @reason,
       @scenes_json, @created_by, @created_at, @updated_at)`,
  );
  const byId = sqlite.prepare<[string], DownloadRow>(
    `SELECT id, org_id, aoi_id, requested_field, requested_ids_json, status, reason, scenes_json,
       created_by, created_at, updated_at FROM downloads WHERE id = ?`,
  );
  const update = sqlite.prepare(
    `UPDATE downloads SET status = @status, reason = @reason, scenes_json = @scenes_json,
       updated_at = @updated_at WHERE id = @id`,
  );
  const catalog = sqlite.prepare<[string, string], { id: string }>(
    'SELECT id FROM catalog_records WHERE id = ? AND org_id = ?',
  );
  const item = sqlite.prepare<[string, string], { id: string; status: string }>(
    'SELECT id, status FROM order_items WHERE id = ? AND org_id = ?',
  );
  const tasksOfItem = sqlite.prepare<[string], TaskOfItem>(
    'SELECT id, status, catalog_id, failure_reason FROM tasks WHERE order_item_id = ? ORDER BY position',
  );
  const asset = sqlite.prepare<[string, string], AssetRef>(
    'SELECT id, aoi_id, asset_type, source_item_id, status FROM assets WHERE id = ? AND org_id = ?',
  );
  const aoi = sqlite.prepare<[string, string], { id: string }>(
    'SELECT id FROM aois WHERE id = ? AND org_id = ?',
  );
  const archiveScene = sqlite.prepare<[string], { id: string }>(
    'SELECT id FROM archive_scenes WHERE id = ?',
  );
  return {
    insert: (d: DownloadRow) => insert.run(d),
    get: (id: string) => byId.get(id),
    update: (d: DownloadRow) => update.run(d),
    catalogRecordExists: (id: string, orgId: string) => catalog.get(id, orgId) !== undefined,
    orderItemExists: (id: string, orgId: string) => item.get(id, orgId) !== undefined,
    orderItemStatus: (id: string, orgId: string) => item.get(id, orgId)?.status,
    tasksOfItem: (itemId: string) => tasksOfItem.all(itemId),
    asset: (id: string, orgId: string) => asset.get(id, orgId),
    aoiExists: (id: string, orgId: string) => aoi.get(id, orgId) !== undefined,
    archiveSceneExists: (id: string) => archiveScene.get(id) !== undefined,
  };
}

export type DownloadQueries = ReturnType<typeof makeDownloadQueries>;
