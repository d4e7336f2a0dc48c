/**
 * Reads of the archive: a collection's items page by page, newest first. Archive scenes are
 * global reference data (every organisation sees the same archive), so nothing here is
 * scoped to an organisation.
 */
import type Database from 'better-sqlite3';
import type { ArchiveSceneRow } from './repository';

export const SCENE_COLUMNS =
  's.seq, s.id, s.collection_id, s.satellite_id, s.datetime_us, s.cloud_cover, s.off_nadir, s.gsd, s.feature_json';

export function makeArchiveLister(sqlite: Database.Database) {
  // Newest first; the (collection_id, datetime_us, seq) index read backwards gives this order.
  const page = sqlite.prepare<[string, number, number], ArchiveSceneRow>(
    `SELECT ${SCENE_COLUMNS} FROM archive_scenes s WHERE s.collection_id = ?
     ORDER BY s.datetime_us DESC, s.seq DESC LIMIT ? OFFSET ?`,
  );
  const count = sqlite.prepare<[string], { n: number }>(
    'SELECT count(*) AS n FROM archive_scenes WHERE collection_id = ?',
  );
  // Scenes are only ever added (seeding), so a collection's count is valid while the largest
  // seq is unchanged: one O(1) rowid lookup instead of counting ~10^6 index entries per page.
  const lastSeq = sqlite.prepare<[], { s: number | null }>(
    'SELECT max(seq) AS s FROM archive_scenes',
  );
  const counts = new Map<string, { seq: number | null; n: number }>();
  const total = (collectionId: string): number => {
    const seq = lastSeq.get()!.s;
    const cached = counts.get(collectionId);
    if (cached && cached.seq === seq) return cached.n;
    const n = count.get(collectionId)!.n;
    counts.set(collectionId, { seq, n });
    return n;
  };
  return (collectionId: string, limit: number, offset: number) => ({
    rows: page.all(collectionId, limit, offset),
    total: total(collectionId),
  });
}
