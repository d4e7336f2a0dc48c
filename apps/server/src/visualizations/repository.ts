/** SQL for visualizations (their index assets live in the assets table, see aois/). */
import type { SqlRow } from '@eo/catalog-store';
import type { visualizations } from './schema';
import type Database from 'better-sqlite3';
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
