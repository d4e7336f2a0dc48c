/**
 * Reads of the archive scenes the saved archive searches keep (pull/archive.ts writes them):
 * a search's scenes in the service's order, with whether their quicklooks are stored (in the
 * imagery store, under the scene id), and where each search's last pass stands.
 */
import type { SqlRow } from '@eo/catalog-store';
import type Database from 'better-sqlite3';
import type {
  mirrorArchiveScenes,
  mirrorArchiveSearches,
  mirrorArchiveSearchScenes,
} from './schema';
import type { SyncErrorInfo } from '../pull/errors';
import type { ArchivePassState } from '../pull/archive';
import type { WireRecord } from './rows';

export interface ArchiveScene {
  readonly id: string;
  /** Place in its search's list (0 = first, as the service ordered them: newest first). */
  readonly rank: number;
  readonly collectionId: string | null;
  readonly satelliteId: string | null;
  /** Acquisition time (µs), null when unreadable. */
  readonly datetimeUs: number | null;
  readonly cloudCover: number | null;
  /** [west, south, east, north], null without a readable footprint. */
  readonly bbox: [number, number, number, number] | null;
  /** Whether the thumbnail / overview is stored (read it with `mirror.imagery.get(id, ...)`). */
  readonly thumbnail: boolean;
  readonly overview: boolean;
  /** The feature as the service sent it. */
  readonly feature: WireRecord;
}

export interface ArchiveSearchStatus {
  readonly searchId: string;
  readonly name: string;
  /** `never`: saved but not run yet. */
  readonly state: ArchivePassState | 'never';
  /** Scenes its list holds now. */
  readonly scenes: number;
  readonly total: number | null;
  readonly drift: number;
  readonly skipped: number;
  readonly attemptedAtUs: number | null;
  readonly lastCompleteAtUs: number | null;
  readonly lastError: SyncErrorInfo | null;
}

export interface ArchiveCounts {
  readonly searches: number;
  /** Scenes stored (each once). */
  readonly scenes: number;
  /** Their stored quicklooks and the bytes those take. */
  readonly thumbnails: number;
  readonly overviews: number;
  readonly bytes: number;
}

type SceneQueryRow = Omit<SqlRow<typeof mirrorArchiveScenes>, 'received_at_us'> &
  Pick<SqlRow<typeof mirrorArchiveSearchScenes>, 'rank'> & { thumbnail: number; overview: number };

type SearchRow = Omit<SqlRow<typeof mirrorArchiveSearches>, 'plan' | 'received'> & {
  scenes: number;
};

export function makeArchiveReads(sqlite: Database.Database) {
  const q = {
    scenes: sqlite.prepare<[string], SceneQueryRow>(
      `SELECT s.id, l.rank, s.collection_id, s.satellite_id, s.datetime_us, s.cloud_cover,
         s.min_lon, s.min_lat, s.max_lon, s.max_lat, s.json,
         EXISTS (SELECT 1 FROM mirror_imagery i WHERE i.record_id = s.id
           AND i.variant = 'thumbnail') AS thumbnail,
         EXISTS (SELECT 1 FROM mirror_imagery i WHERE i.record_id = s.id
           AND i.variant = 'overview') AS overview
       FROM mirror_archive_search_scenes l JOIN mirror_archive_scenes s ON s.id = l.scene_id
       WHERE l.search_id = ? ORDER BY l.rank`,
    ),
    searches: sqlite.prepare<[], SearchRow>(
      `SELECT a.search_id, a.name, a.total, a.incomplete, a.drift, a.skipped, a.attempted_at_us,
         a.last_complete_at_us, a.last_error_json,
         (SELECT count(*) FROM mirror_archive_search_scenes l
           WHERE l.search_id = a.search_id) AS scenes
       FROM mirror_archive_searches a ORDER BY a.name, a.search_id`,
    ),
    counts: sqlite.prepare<[], Omit<ArchiveCounts, 'bytes'> & { bytes: number | null }>(
      `SELECT (SELECT count(*) FROM mirror_archive_searches) AS searches,
         (SELECT count(*) FROM mirror_archive_scenes) AS scenes,
         count(*) FILTER (WHERE i.variant = 'thumbnail') AS thumbnails,
         count(*) FILTER (WHERE i.variant = 'overview') AS overviews,
         sum(i.bytes) AS bytes
       FROM mirror_imagery i JOIN mirror_archive_scenes s ON s.id = i.record_id`,
    ),
  };

  return {
    /** The scenes a saved search lists, in its order; [] for an unknown or empty search. */
    scenes(searchId: string): ArchiveScene[] {
      return q.scenes.all(searchId).map((r) => ({
        id: r.id,
        rank: r.rank,
        collectionId: r.collection_id,
        satelliteId: r.satellite_id,
        datetimeUs: r.datetime_us,
        cloudCover: r.cloud_cover,
        bbox:
          r.min_lon === null || r.min_lat === null || r.max_lon === null || r.max_lat === null
            ? null
            : [r.min_lon, r.min_lat, r.max_lon, r.max_lat],
        thumbnail: r.thumbnail === 1,
        overview: r.overview === 1,
        feature: JSON.parse(r.json) as WireRecord,
      }));
    },
    /** Every saved search the mirror has run, with its last pass. */
    searches(): ArchiveSearchStatus[] {
      return q.searches.all().map((r) => ({
        searchId: r.search_id,
        name: r.name,
        state:
          r.last_error_json !== null
            ? 'failed'
            : r.attempted_at_us === null
              ? 'never'
              : r.incomplete
                ? 'incomplete'
                : 'complete',
        scenes: r.scenes,
        total: r.total,
        drift: r.drift,
        skipped: r.skipped,
        attemptedAtUs: r.attempted_at_us,
        lastCompleteAtUs: r.last_complete_at_us,
        lastError: r.last_error_json ? (JSON.parse(r.last_error_json) as SyncErrorInfo) : null,
      }));
    },
    counts(): ArchiveCounts {
      const c = q.counts.get()!;
      return { ...c, bytes: c.bytes ?? 0 };
    },
  };
}
