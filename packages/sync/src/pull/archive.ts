/**
 * The archive pass: after the records, each saved archive search (`SavedArchiveSearch` in
 * @eo/domain) is run through the satellite image search (4.5 POST /v0/search), paged by
 * skip/limit up to its cap of scenes, and the scenes it lists are kept for offline use
 * (mirror/archive.ts reads them; the imagery pass fetches their quicklooks).
 *
 * Honest about incomplete results, like the record passes: a search whose pass ended short (the
 * pager cut it off, fewer scenes than the service's total) adds what it received to its list but
 * removes nothing, and is flagged `incomplete`; a search that failed (network, 4xx, 5xx) keeps
 * its previous list and records the error; neither stops the other searches. Only a pass that
 * completed (the cap reached or the service's list ended) replaces the search's list. Scenes no
 * saved search lists any more are deleted (their pictures with the imagery store's next orphan
 * sweep), and so are the lists of searches no longer saved.
 *
 * Kept raw, read leniently: each scene's feature JSON is stored as received; id, collection,
 * acquisition time, cloud cover and bbox are copies read with @eo/domain's lenient readers (a
 * field sent but unreadable leaves its column NULL and counts as drift); a feature without a
 * usable id is skipped (counted), never the pass.
 */
import type { BodyInput, EoClient, PassEnd } from '@eo/api-client';
import {
  geometryBbox,
  LIMITS,
  readId,
  readInstant,
  readNumber,
  readText,
  SavedArchiveSearchList,
  type Geometry,
  type SavedArchiveSearch,
  type SavedArchiveSearchInput,
} from '@eo/domain';
import type { SqlRow } from '@eo/catalog-store';
import type Database from 'better-sqlite3';
import type { mirrorArchiveScenes } from '../mirror/schema';
import { describeSyncError, type SyncErrorInfo } from './errors';

export interface ArchiveProgress {
  readonly resource: 'archive';
  /** The saved search being run (0-based) of `parts`. */
  readonly part: number;
  readonly parts: number;
  /** Scenes received for that search so far. */
  readonly seen: number;
  readonly done: boolean;
}

export interface ArchiveSyncOptions {
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((p: ArchiveProgress) => void) | undefined;
  /** Clock (µs). */
  readonly nowUs?: (() => number) | undefined;
  /** Scenes per request (default: the search's cap, at most the service's maximum limit). */
  readonly pageSize?: number | undefined;
}

/** How a saved search's last pass ended. */
export type ArchivePassState = 'complete' | 'incomplete' | 'failed';

export interface ArchiveSearchReport {
  readonly searchId: string;
  readonly name: string;
  readonly state: ArchivePassState;
  /** Scenes received (after the cap and duplicates). */
  readonly received: number;
  /** The service's total, when it gave one. */
  readonly total: number | null;
  /** Scenes stored with a field that could not be read for its column. */
  readonly drift: number;
  /** Features without a usable id: not stored. */
  readonly skipped: number;
  readonly error?: SyncErrorInfo;
}

export interface ArchiveReport {
  readonly searches: ArchiveSearchReport[];
  /** Scenes stored after the pass (each once, however many searches list it). */
  readonly scenes: number;
  /** Scenes deleted: no saved search lists them any more. */
  readonly dropped: number;
}

/** A scene's row before insert (the time it was received is the writer's). */
type SceneRow = Omit<SqlRow<typeof mirrorArchiveScenes>, 'received_at_us'>;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isBlank = (v: unknown) => v === undefined || v === null || v === '';

/** The saved searches, validated (a RangeError names the first bad one and its path). */
export function parseArchiveSearches(
  searches: readonly SavedArchiveSearchInput[],
): SavedArchiveSearch[] {
  const r = SavedArchiveSearchList.safeParse(searches);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  throw new RangeError(`${archiveIssuePath(issue?.path ?? [])}: ${issue?.message ?? 'invalid'}`);
}

/** `archive[1].search.end_date`: where in a list of saved archive searches an issue is. */
export function archiveIssuePath(path: ReadonlyArray<PropertyKey>): string {
  const [index, ...rest] = path;
  return [`archive[${String(index ?? 0)}]`, ...rest.map(String)].join('.');
}

/** A received feature as a row, or null without a usable id; `drift`: fields not read. */
function sceneRow(
  feature: unknown,
  search: SavedArchiveSearch,
): { row: Omit<SceneRow, 'json'>; drift: boolean } | null {
  if (!isRecord(feature)) return null;
  const id = readId(feature.id);
  if (id === null) return null;
  const p = isRecord(feature.properties) ? feature.properties : {};
  let drift = false;
  const col = <T>(v: unknown, read: (v: unknown) => T | null): T | null => {
    const out = read(v);
    if (out === null && !isBlank(v)) drift = true;
    return out;
  };
  let bbox: readonly number[] | null = null;
  if (!isBlank(feature.geometry)) {
    try {
      bbox = geometryBbox(feature.geometry as Geometry);
    } catch {
      bbox = null;
    }
    if (!bbox || !bbox.every(Number.isFinite)) {
      bbox = null;
      drift = true;
    }
  }
  return {
    row: {
      id,
      collection_id: readText(feature.collection) ?? search.search.satellite.collection_id,
      // The scene was found by searching this satellite.
      satellite_id: search.search.satellite.satellite_id,
      datetime_us: col(p.datetime, readInstant),
      cloud_cover: col(p['eo:cloud_cover'], readNumber),
      min_lon: bbox?.[0] ?? null,
      min_lat: bbox?.[1] ?? null,
      max_lon: bbox?.[2] ?? null,
      max_lat: bbox?.[3] ?? null,
    },
    drift,
  };
}

export function makeArchiveWriter(sqlite: Database.Database) {
  const q = {
    upsertScene: sqlite.prepare(
      `INSERT INTO mirror_archive_scenes (id, collection_id, satellite_id, datetime_us, cloud_cover,
         min_lon, min_lat, max_lon, max_lat, json, received_at_us)
       VALUES (@id, @collection_id, @satellite_id, @datetime_us, @cloud_cover,
         @min_lon, @min_lat, @max_lon, @max_lat, @json, @now)
       ON CONFLICT (id) DO UPDATE SET collection_id = excluded.collection_id,
         satellite_id = excluded.satellite_id, datetime_us = excluded.datetime_us,
         cloud_cover = excluded.cloud_cover, min_lon = excluded.min_lon,
         min_lat = excluded.min_lat, max_lon = excluded.max_lon, max_lat = excluded.max_lat,
         json = excluded.json, received_at_us = excluded.received_at_us`,
    ),
    listed: sqlite
      .prepare<[string], string>(
        'SELECT scene_id FROM mirror_archive_search_scenes WHERE search_id = ? ORDER BY rank',
      )
      .pluck(),
    clearList: sqlite.prepare('DELETE FROM mirror_archive_search_scenes WHERE search_id = ?'),
    link: sqlite.prepare(
      'INSERT INTO mirror_archive_search_scenes (search_id, scene_id, rank) VALUES (?, ?, ?)',
    ),
    plan: sqlite
      .prepare<[string], string>('SELECT plan FROM mirror_archive_searches WHERE search_id = ?')
      .pluck(),
    passed: sqlite.prepare(
      `INSERT INTO mirror_archive_searches (search_id, name, plan, received, total, incomplete,
         drift, skipped, attempted_at_us, last_complete_at_us, last_error_json)
       VALUES (@searchId, @name, @plan, @received, @total, @incomplete, @drift, @skipped, @now,
         CASE WHEN @incomplete = 0 THEN @now END, NULL)
       ON CONFLICT (search_id) DO UPDATE SET name = excluded.name, plan = excluded.plan,
         received = excluded.received, total = excluded.total, incomplete = excluded.incomplete,
         drift = excluded.drift, skipped = excluded.skipped,
         attempted_at_us = excluded.attempted_at_us,
         last_complete_at_us = coalesce(excluded.last_complete_at_us, last_complete_at_us),
         last_error_json = NULL`,
    ),
    failed: sqlite.prepare(
      `INSERT INTO mirror_archive_searches (search_id, name, plan, attempted_at_us, last_error_json)
       VALUES (@searchId, @name, @plan, @now, @error)
       ON CONFLICT (search_id) DO UPDATE SET name = excluded.name,
         attempted_at_us = excluded.attempted_at_us, last_error_json = excluded.last_error_json`,
    ),
    searchIds: sqlite.prepare<[], string>('SELECT search_id FROM mirror_archive_searches').pluck(),
    forgetList: sqlite.prepare('DELETE FROM mirror_archive_search_scenes WHERE search_id = ?'),
    forgetSearch: sqlite.prepare('DELETE FROM mirror_archive_searches WHERE search_id = ?'),
    dropUnlisted: sqlite.prepare(
      `DELETE FROM mirror_archive_scenes WHERE NOT EXISTS
         (SELECT 1 FROM mirror_archive_search_scenes l WHERE l.scene_id = mirror_archive_scenes.id)`,
    ),
    count: sqlite.prepare<[], number>('SELECT count(*) FROM mirror_archive_scenes').pluck(),
  };

  return {
    /**
     * Writes one search's received scenes. Complete: they become its list. Incomplete: they
     * are ranked first and its previous scenes follow (nothing removed), unless the search
     * changed since that list was made (then the list is of another search and is replaced).
     */
    write: sqlite.transaction(
      (
        search: SavedArchiveSearch,
        rows: SceneRow[],
        r: { total: number | null; complete: boolean; drift: number; skipped: number },
        now: number,
      ) => {
        for (const row of rows) q.upsertScene.run({ ...row, now });
        const plan = JSON.stringify({ search: search.search, maxScenes: search.maxScenes });
        const samePlan = q.plan.get(search.id) === plan;
        const ids = rows.map((row) => row.id);
        if (!r.complete && samePlan) {
          const received = new Set(ids);
          ids.push(...q.listed.all(search.id).filter((id) => !received.has(id)));
        }
        q.clearList.run(search.id);
        ids.forEach((id, rank) => q.link.run(search.id, id, rank));
        q.passed.run({
          searchId: search.id,
          name: search.name,
          plan,
          received: rows.length,
          total: r.total,
          incomplete: r.complete ? 0 : 1,
          drift: r.drift,
          skipped: r.skipped,
          now,
        });
      },
    ),
    failed(search: SavedArchiveSearch, error: SyncErrorInfo, now: number) {
      const plan = JSON.stringify({ search: search.search, maxScenes: search.maxScenes });
      q.failed.run({
        searchId: search.id,
        name: search.name,
        plan,
        now,
        error: JSON.stringify(error),
      });
    },
    /** Forgets searches not in `keep`, then deletes scenes no search lists; the scenes deleted. */
    prune: sqlite.transaction((keep: ReadonlySet<string>): number => {
      for (const id of q.searchIds.all()) {
        if (keep.has(id)) continue;
        q.forgetList.run(id);
        q.forgetSearch.run(id);
      }
      return q.dropUnlisted.run().changes;
    }),
    count: () => q.count.get()!,
  };
}

/** Runs every saved archive search and keeps what each lists (see the file's comment). */
export async function syncArchive(
  sqlite: Database.Database,
  client: EoClient,
  saved: readonly SavedArchiveSearchInput[],
  options: ArchiveSyncOptions = {},
): Promise<ArchiveReport> {
  const searches = parseArchiveSearches(saved);
  const { signal } = options;
  const nowUs = options.nowUs ?? (() => Date.now() * 1000);
  const writer = makeArchiveWriter(sqlite);
  const reports: ArchiveSearchReport[] = [];
  for (const [part, search] of searches.entries()) {
    signal?.throwIfAborted();
    const progress = (seen: number, done: boolean) =>
      options.onProgress?.({ resource: 'archive', part, parts: searches.length, seen, done });
    const pageSize = Math.min(options.pageSize ?? search.maxScenes, LIMITS.maxLimit);
    const received: unknown[] = [];
    let total: number | null = null;
    let end: PassEnd | undefined;
    try {
      const body = search.search as BodyInput<'searchSatelliteImages'>;
      for await (const page of client.pages.satelliteImages(body, { pageSize, signal })) {
        received.push(...page.items);
        total = page.total ?? null;
        end = page.end;
        progress(received.length, false);
        // The cap reached: the rest is not wanted (the pager aborts what it read ahead).
        if (received.length >= search.maxScenes) break;
      }
      // Aborted as the last page came in: nothing of this search is written.
      signal?.throwIfAborted();
    } catch (e) {
      if (signal?.aborted) throw e;
      const error = describeSyncError(e);
      writer.failed(search, error, nowUs());
      reports.push({
        searchId: search.id,
        name: search.name,
        state: 'failed',
        received: 0,
        total: null,
        drift: 0,
        skipped: 0,
        error,
      });
      progress(0, true);
      continue;
    }
    const capped = received.length >= search.maxScenes;
    const rows: SceneRow[] = [];
    const seen = new Set<string>();
    let drift = 0;
    let skipped = 0;
    for (const feature of received.slice(0, search.maxScenes)) {
      const read = sceneRow(feature, search);
      if (!read) {
        skipped++;
        continue;
      }
      // A scene the service listed twice (offset paging over a changing list) is kept once.
      if (seen.has(read.row.id)) continue;
      seen.add(read.row.id);
      if (read.drift) drift++;
      rows.push({ ...read.row, json: JSON.stringify(feature) });
    }
    // Complete: the cap reached, or the service's list ended with all it counted. A pager cut
    // (page cap, a repeated page) or fewer scenes than the total is incomplete.
    const ended = end === 'total' || end === 'empty' || end === 'short';
    const complete = capped || (ended && (total === null || received.length >= total));
    writer.write(search, rows, { total, complete, drift, skipped }, nowUs());
    reports.push({
      searchId: search.id,
      name: search.name,
      state: complete ? 'complete' : 'incomplete',
      received: rows.length,
      total,
      drift,
      skipped,
    });
    progress(received.length, true);
  }
  const dropped = writer.prune(new Set(searches.map((s) => s.id)));
  return { searches: reports, scenes: writer.count(), dropped };
}
