/** SQL for visualizations (their index assets live in the assets table, see aois/). */
import type { SqlRow } from '@eo/catalog-store';
import type { visualizations } from './schema';
import type Database from 'better-sqlite3';
import type { ListVisualizationsQuery } from '@eo/domain';
import type { AssetRow } from '../aois/repository';
import { stmt } from '../aois/statements';

export type VisualizationRow = SqlRow<typeof visualizations>;

export interface NewVisualization {
  id: string;
  orgId: string;
  userId: string;
  aoiId: string;
  indexId: string;
  indexName: string;
  expression: string;
  expressionType: string;
  rescale: number[];
  srcAssetIds: string[];
  nowUs: number;
}

/** A new visualization: `creating`, progress 0, type `custom` (the only value the spec lists). */
export function insertVisualization(sqlite: Database.Database, v: NewVisualization): void {
  stmt(
    sqlite,
    `INSERT INTO visualizations (id, org_id, user_id, aoi_id, index_id, index_name, expression,
       expression_type, type, rescale_json, src_asset_ids_json, status, progress, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'custom', ?, ?, 'creating', 0, ?, ?)`,
  ).run(
    v.id,
    v.orgId,
    v.userId,
    v.aoiId,
    v.indexId,
    v.indexName,
    v.expression,
    v.expressionType,
    JSON.stringify(v.rescale),
    JSON.stringify(v.srcAssetIds),
    v.nowUs,
    v.nowUs,
  );
}

export function getVisualizationById(
  sqlite: Database.Database,
  id: string,
): VisualizationRow | undefined {
  return stmt<[string], VisualizationRow>(sqlite, 'SELECT * FROM visualizations WHERE id = ?').get(
    id,
  );
}

/** One page of an AOI's visualizations, oldest first, filtered by index or id. */
export function listAoiVisualizations(
  sqlite: Database.Database,
  aoiId: string,
  q: ListVisualizationsQuery,
): { rows: VisualizationRow[]; total: number } {
  const params = {
    aoiId,
    index: q.index_id ?? null,
    id: q.visualization_id ?? null,
    limit: q.limit,
    offset: q.offset,
  };
  const total = stmt<[typeof params], { n: number }>(
    sqlite,
    `SELECT count(*) AS n FROM visualizations
       WHERE aoi_id = @aoiId AND (@index IS NULL OR index_id = @index) AND (@id IS NULL OR id = @id)`,
  ).get(params)!.n;
  const rows = stmt<[typeof params], VisualizationRow>(
    sqlite,
    `SELECT * FROM visualizations
       WHERE aoi_id = @aoiId AND (@index IS NULL OR index_id = @index) AND (@id IS NULL OR id = @id)
       ORDER BY seq LIMIT @limit OFFSET @offset`,
  ).all(params);
  return { rows, total };
}

export function updateVisualizationProgress(
  sqlite: Database.Database,
  id: string,
  status: string,
  progress: number,
  nowUs: number,
): void {
  stmt(
    sqlite,
    'UPDATE visualizations SET status = ?, progress = ?, updated_at = ? WHERE id = ?',
  ).run(status, progress, nowUs, id);
}

/** The index assets of a visualization, in order. */
export function visualizationAssets(
  sqlite: Database.Database,
  visualizationId: string,
): AssetRow[] {
  return stmt<[string], AssetRow>(
    sqlite,
    'SELECT * FROM assets WHERE visualization_id = ? ORDER BY seq',
  ).all(visualizationId);
}
