/** Writes and reads of archive scenes (and their R*Tree entries). */
import type { SqlRow } from '@eo/catalog-store';
import type { archiveScenes } from './schema';
import type { Geometry } from '@eo/domain';
import { parseRfc3339, geometryBbox } from '@eo/domain';
import type Database from 'better-sqlite3';
import { compactFeature, expandFeature, type ArchiveFeatureIn } from './feature';

export type { ArchiveFeatureIn };

/** A scene as the lists read it (`SCENE_COLUMNS` in list.ts): the sun angles and bounds stay behind. */
export type ArchiveSceneRow = Pick<
  SqlRow<typeof archiveScenes>,
  | 'seq'
  | 'id'
  | 'collection_id'
  | 'satellite_id'
  | 'datetime_us'
  | 'cloud_cover'
  | 'off_nadir'
  | 'gsd'
  | 'feature_json'
>;

/**
 * Inserts scenes (call inside a transaction for batches). `satelliteId` is the scene's
 * satellite. What is derivable from the collection and satellite is not stored (`feature.ts`).
 */
export function makeArchiveInserter(sqlite: Database.Database) {
  const insert = sqlite.prepare(
    `INSERT INTO archive_scenes (id, collection_id, satellite_id, datetime_us, cloud_cover, off_nadir, gsd,
       sun_elevation, sun_azimuth, min_lon, min_lat, max_lon, max_lat, feature_json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertRtree = sqlite.prepare(
    'INSERT INTO archive_scenes_rtree (seq, min_lon, max_lon, min_lat, max_lat) VALUES (?, ?, ?, ?, ?)',
  );
  return (feature: ArchiveFeatureIn, satelliteId: string): void => {
    const p = feature.properties;
    const [w, s, e, n] = geometryBbox(feature.geometry as Geometry)!;
    const r = insert.run(
      feature.id,
      feature.collection ?? '',
      satelliteId,
      parseRfc3339(String(p.datetime)),
      p['eo:cloud_cover'] ?? 0,
      p['view:off_nadir'] ?? 0,
      p.gsd ?? 0,
      p['view:sun_elevation'] ?? 0,
      p['view:sun_azimuth'] ?? 0,
      w,
      s,
      e,
      n,
      JSON.stringify(compactFeature(feature, satelliteId)),
    );
    insertRtree.run(r.lastInsertRowid, w, e, s, n);
  };
}

/** Scenes by STAC item id (missing ids are simply absent from the map). */
export function getArchiveScenes(
  sqlite: Database.Database,
  ids: readonly string[],
): Map<string, ArchiveSceneRow> {
  const out = new Map<string, ArchiveSceneRow>();
  if (ids.length === 0) return out;
  const stmt = sqlite.prepare<[string], ArchiveSceneRow>(
    'SELECT seq, id, collection_id, satellite_id, datetime_us, cloud_cover, off_nadir, gsd, feature_json FROM archive_scenes WHERE id = ?',
  );
  for (const id of new Set(ids)) {
    const row = stmt.get(id);
    if (row) out.set(id, row);
  }
  return out;
}

/** The full STAC feature of a stored scene, without links (they depend on where it is shown). */
export function sceneFeature(
  row: Pick<ArchiveSceneRow, 'id' | 'collection_id' | 'satellite_id' | 'feature_json'>,
): ArchiveFeatureIn {
  return expandFeature(row.id, row.collection_id, row.satellite_id, row.feature_json);
}
