/** SQL for AOIs and their assets. Every read by id that serves a client is org-scoped. */
import type { SqlRow } from '@eo/catalog-store';
import type { aois, assets } from './schema';
import { parseInstantRange, type Geometry, type ListAoisQuery } from '@eo/domain';
import type Database from 'better-sqlite3';
import { stmt } from './statements';

export type AoiRow = SqlRow<typeof aois>;

export type AssetRow = SqlRow<typeof assets>;

export interface NewAoi {
  id: string;
  orgId: string;
  userId: string;
  projectId: string;
  satelliteId: string;
  provider: string;
  name: string;
  description: string;
  geometry: Geometry;
  itemIds: string[];
  eoBands: string[];
  areaSqM: number;
  centroid: [number, number];
  nowUs: number;
}

export function insertAoi(sqlite: Database.Database, a: NewAoi): void {
  stmt(
    sqlite,
    `INSERT INTO aois (id, org_id, user_id, project_id, satellite_id, provider, name, name_lower,
       description, geometry_json, item_ids_json, eo_bands_json, area_sq_m, centroid_lon, centroid_lat,
       scene_status, status, progress, is_favourite, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'started', 'started', 0, 0, ?, ?)`,
  ).run(
    a.id,
    a.orgId,
    a.userId,
    a.projectId,
    a.satelliteId,
    a.provider,
    a.name,
    a.name.toLowerCase(),
    a.description,
    JSON.stringify(a.geometry),
    JSON.stringify(a.itemIds),
    JSON.stringify(a.eoBands),
    a.areaSqM,
    a.centroid[0],
    a.centroid[1],
    a.nowUs,
    a.nowUs,
  );
}

/** An AOI of the organisation, or undefined (unknown ids and other organisations' alike). */
export function getAoi(sqlite: Database.Database, orgId: string, id: string): AoiRow | undefined {
  return stmt<[string, string], AoiRow>(
    sqlite,
    'SELECT * FROM aois WHERE id = ? AND org_id = ?',
  ).get(id, orgId);
}

/** For background steps, which act on behalf of the AOI's own organisation. */
export function getAoiById(sqlite: Database.Database, id: string): AoiRow | undefined {
  return stmt<[string], AoiRow>(sqlite, 'SELECT * FROM aois WHERE id = ?').get(id);
}

export function updateAoiProgress(
  sqlite: Database.Database,
  id: string,
  sceneStatus: string,
  progress: number,
  nowUs: number,
): void {
  stmt(sqlite, 'UPDATE aois SET scene_status = ?, progress = ?, updated_at = ? WHERE id = ?').run(
    sceneStatus,
    progress,
    nowUs,
    id,
  );
}

export function listAois(
  sqlite: Database.Database,
  orgId: string,
  q: ListAoisQuery,
): { rows: AoiRow[]; total: number } {
  const where = ['org_id = @orgId'];
  const params: Record<string, string | number> = { orgId, limit: q.limit, offset: q.offset };
  const range = (column: 'created_at' | 'updated_at', value: string | undefined) => {
    if (value === undefined) return;
    const r = parseInstantRange(value);
    // The query schema already rejected malformed intervals.
    if (!r.ok) return;
    if (r.value.start !== null) {
      where.push(`${column} >= @${column}_start`);
      params[`${column}_start`] = r.value.start;
    }
    if (r.value.end !== null) {
      where.push(`${column} <= @${column}_end`);
      params[`${column}_end`] = r.value.end;
    }
  };
  range('created_at', q.created_at);
  range('updated_at', q.updated_at);
  if (q.aoi_id !== undefined) {
    where.push('id = @aoi_id');
    params.aoi_id = q.aoi_id;
  }
  if (q.aoi_name !== undefined) {
    // instr, not LIKE: `%` and `_` in the filter are plain characters.
    where.push('instr(name_lower, @aoi_name) > 0');
    params.aoi_name = q.aoi_name.toLowerCase();
  }
  if (q.project_ids !== undefined) {
    const names = q.project_ids.map((id, i) => {
      params[`p${i}`] = id;
      return `@p${i}`;
    });
    where.push(`project_id IN (${names.join(', ')})`);
  }
  const clause = where.join(' AND ');
  const total = stmt<[typeof params], { n: number }>(
    sqlite,
    `SELECT count(*) AS n FROM aois WHERE ${clause}`,
  ).get(params)!.n;
  const rows = stmt<[typeof params], AoiRow>(
    sqlite,
    `SELECT * FROM aois WHERE ${clause} ORDER BY seq LIMIT @limit OFFSET @offset`,
  ).all(params);
  return { rows, total };
}

// --- assets -------------------------------------------------------------------------------

export interface NewAsset {
  id: string;
  orgId: string;
  aoiId: string;
  visualizationId: string | null;
  sourceItemId: string | null;
  sourceAssetId: string | null;
  name: string;
  description: string;
  assetType: 'scene' | 'index';
  bandList: string[];
  date: string;
  nowUs: number;
}

/** A new asset, `pending` with progress 0: its content is produced by a worker step. */
export function insertAsset(sqlite: Database.Database, a: NewAsset): void {
  stmt(
    sqlite,
    `INSERT INTO assets (id, org_id, aoi_id, visualization_id, source_item_id, source_asset_id, name,
       description, asset_type, band_list_json, date, status, progress, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?)`,
  ).run(
    a.id,
    a.orgId,
    a.aoiId,
    a.visualizationId,
    a.sourceItemId,
    a.sourceAssetId,
    a.name,
    a.description,
    a.assetType,
    JSON.stringify(a.bandList),
    a.date,
    a.nowUs,
    a.nowUs,
  );
}

export function listAssets(
  sqlite: Database.Database,
  aoiId: string,
  limit: number,
  offset: number,
): { rows: AssetRow[]; total: number } {
  const total = stmt<[string], { n: number }>(
    sqlite,
    'SELECT count(*) AS n FROM assets WHERE aoi_id = ?',
  ).get(aoiId)!.n;
  const rows = stmt<[string, number, number], AssetRow>(
    sqlite,
    'SELECT * FROM assets WHERE aoi_id = ? ORDER BY seq LIMIT ? OFFSET ?',
  ).all(aoiId, limit, offset);
  return { rows, total };
}

export function getAssetById(sqlite: Database.Database, id: string): AssetRow | undefined {
  return stmt<[string], AssetRow>(sqlite, 'SELECT * FROM assets WHERE id = ?').get(id);
}

/** Assets of one AOI by id (ids of other AOIs are absent from the map). */
export function getAoiAssets(
  sqlite: Database.Database,
  aoiId: string,
  ids: readonly string[],
): Map<string, AssetRow> {
  const out = new Map<string, AssetRow>();
  const one = stmt<[string, string], AssetRow>(
    sqlite,
    'SELECT * FROM assets WHERE id = ? AND aoi_id = ?',
  );
  for (const id of new Set(ids)) {
    const row = one.get(id, aoiId);
    if (row) out.set(id, row);
  }
  return out;
}

/** Scene assets of an AOI (not the index assets of its visualizations), in order. */
export function sceneAssetsOf(sqlite: Database.Database, aoiId: string): AssetRow[] {
  return stmt<[string], AssetRow>(
    sqlite,
    "SELECT * FROM assets WHERE aoi_id = ? AND asset_type = 'scene' ORDER BY seq",
  ).all(aoiId);
}

/** The first asset of a production run in a given status (`scene` assets of an AOI, or a visualization's). */
export function firstAssetInStatus(
  sqlite: Database.Database,
  owner: { aoiId: string } | { visualizationId: string },
  status: 'pending' | 'running',
): AssetRow | undefined {
  if ('aoiId' in owner) {
    return stmt<[string, string], AssetRow>(
      sqlite,
      "SELECT * FROM assets WHERE aoi_id = ? AND asset_type = 'scene' AND status = ? ORDER BY seq LIMIT 1",
    ).get(owner.aoiId, status);
  }
  return stmt<[string, string], AssetRow>(
    sqlite,
    'SELECT * FROM assets WHERE visualization_id = ? AND status = ? ORDER BY seq LIMIT 1',
  ).get(owner.visualizationId, status);
}

/** Counts of a production run's assets by status. */
export function assetStatusCounts(
  sqlite: Database.Database,
  owner: { aoiId: string } | { visualizationId: string },
): Record<'pending' | 'running' | 'success' | 'failed' | 'total', number> {
  const rows =
    'aoiId' in owner
      ? stmt<[string], { status: string; n: number }>(
          sqlite,
          "SELECT status, count(*) AS n FROM assets WHERE aoi_id = ? AND asset_type = 'scene' GROUP BY status",
        ).all(owner.aoiId)
      : stmt<[string], { status: string; n: number }>(
          sqlite,
          'SELECT status, count(*) AS n FROM assets WHERE visualization_id = ? GROUP BY status',
        ).all(owner.visualizationId);
  const out = { pending: 0, running: 0, success: 0, failed: 0, total: 0 };
  for (const r of rows) {
    if (r.status in out) out[r.status as keyof typeof out] = r.n;
    out.total += r.n;
  }
  return out;
}

export function markAssetRunning(sqlite: Database.Database, id: string, nowUs: number): void {
  stmt(
    sqlite,
    "UPDATE assets SET status = 'running', progress = 50, updated_at = ? WHERE id = ? AND status = 'pending'",
  ).run(nowUs, id);
}

export interface AssetOutcome {
  status: 'success' | 'failed';
  geometry: Geometry | null;
  areaSqM: number | null;
  centroid: [number, number] | null;
  path: string | null;
  description?: string;
}

export function finishAsset(
  sqlite: Database.Database,
  id: string,
  o: AssetOutcome,
  nowUs: number,
): void {
  stmt(
    sqlite,
    `UPDATE assets SET status = ?, progress = 100, geometry_json = ?, area_sq_m = ?, centroid_lon = ?,
       centroid_lat = ?, path = ?, description = coalesce(?, description), updated_at = ?
     WHERE id = ? AND status = 'running'`,
  ).run(
    o.status,
    o.geometry ? JSON.stringify(o.geometry) : null,
    o.areaSqM,
    o.centroid?.[0] ?? null,
    o.centroid?.[1] ?? null,
    o.path,
    o.description ?? null,
    nowUs,
    id,
  );
}

/** Ends every unfinished asset of a production run as `failed` with `reason` (the worker gave up). */
export function failUnfinishedAssets(
  sqlite: Database.Database,
  owner: { aoiId: string } | { visualizationId: string },
  reason: string,
  nowUs: number,
): void {
  const failed: AssetOutcome = {
    status: 'failed',
    geometry: null,
    areaSqM: null,
    centroid: null,
    path: null,
    description: reason,
  };
  for (;;) {
    const asset =
      firstAssetInStatus(sqlite, owner, 'running') ?? firstAssetInStatus(sqlite, owner, 'pending');
    if (!asset) return;
    if (asset.status === 'pending') markAssetRunning(sqlite, asset.id, nowUs);
    finishAsset(sqlite, asset.id, failed, nowUs);
  }
}
