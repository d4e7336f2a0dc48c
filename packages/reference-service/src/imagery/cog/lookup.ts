/**
 * The scene behind a ref: an archive scene (every band of its satellite) or a catalog record
 * (its bandset's bands; only its own organisation's, when one is named).
 */
import { sceneFeature, type ArchiveSceneRow } from '../../archive/repository';
import type { AppContext } from '../../context';
import { satelliteById } from '../../reference/catalog';
import type { SceneRef } from './scene-cogs';
import { satelliteOfItem, sceneRasterOf, type SceneRaster } from './scene';

export function makeSceneLookup(ctx: Pick<AppContext, 'sqlite'>) {
  const scene = ctx.sqlite.prepare<
    [string],
    Pick<ArchiveSceneRow, 'id' | 'collection_id' | 'satellite_id' | 'feature_json'>
  >('SELECT id, collection_id, satellite_id, feature_json FROM archive_scenes WHERE id = ?');
  const record = ctx.sqlite.prepare<[string], { org_id: string; record_json: string }>(
    'SELECT org_id, record_json FROM catalog_records WHERE id = ?',
  );
  return (ref: SceneRef, orgId: string | null): SceneRaster | null => {
    if (ref.source === 'archive') {
      const row = scene.get(ref.id);
      const satellite = row && satelliteById(row.satellite_id);
      return row && satellite ? sceneRasterOf(sceneFeature(row), satellite, null) : null;
    }
    const row = record.get(ref.id);
    if (!row || (orgId !== null && row.org_id !== orgId)) return null;
    const rec = JSON.parse(row.record_json) as { bandset_id?: unknown; details?: unknown };
    const details =
      rec.details && typeof rec.details === 'object'
        ? (rec.details as Parameters<typeof satelliteOfItem>[0])
        : null;
    const satellite = details && satelliteOfItem(details);
    if (!details || !satellite) return null;
    return sceneRasterOf(
      details,
      satellite,
      typeof rec.bandset_id === 'string' ? rec.bandset_id : null,
    );
  };
}
