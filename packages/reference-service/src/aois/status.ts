/**
 * The AOI status machine (see docs/choices-aois.md):
 *
 *   started -> running -> success | partial_success | failed        (scene assets)
 *   settled <-> updating                (while a visualization on it is `creating`)
 *
 * `scene_status` holds the outcome of producing the scene assets; the wire `status` is that,
 * or `updating` while the AOI has settled and one of its visualizations is still creating.
 */
import type Database from 'better-sqlite3';
import { stmt } from './statements';

export type SceneStatus = 'started' | 'running' | 'success' | 'partial_success' | 'failed';

export const isSettled = (sceneStatus: string) =>
  sceneStatus !== 'started' && sceneStatus !== 'running';

/** The result of a finished production run from its asset counts. */
export function outcomeOf(counts: {
  success: number;
  failed: number;
}): 'success' | 'partial_success' | 'failed' {
  if (counts.failed === 0) return 'success';
  if (counts.success === 0) return 'failed';
  return 'partial_success';
}

/** Recompute and store the wire status of an AOI from its scene status and visualizations. */
export function refreshAoiStatus(sqlite: Database.Database, aoiId: string, nowUs: number): void {
  const aoi = stmt<[string], { scene_status: string; status: string }>(
    sqlite,
    'SELECT scene_status, status FROM aois WHERE id = ?',
  ).get(aoiId);
  if (!aoi) return;
  let status = aoi.scene_status;
  if (isSettled(status)) {
    const creating = stmt<[string], { one: number }>(
      sqlite,
      "SELECT 1 AS one FROM visualizations WHERE aoi_id = ? AND status = 'creating' LIMIT 1",
    ).get(aoiId);
    if (creating) status = 'updating';
  }
  if (status !== aoi.status) {
    stmt(sqlite, 'UPDATE aois SET status = ?, updated_at = ? WHERE id = ?').run(
      status,
      nowUs,
      aoiId,
    );
  }
}
