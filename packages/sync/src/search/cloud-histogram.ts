/**
 * The distribution of `eo:cloud_cover` over the catalog records a search matches WITHOUT its
 * own cloud-cover filter (the filter panel draws it above the cloud slider, so the user sees
 * what moving the slider would add or remove). The matches come from the search's compiled SQL
 * (`@eo/catalog-store`, the same WHERE as the search); the bins from the indexed numeric
 * `cloud_cover` column, which holds the value the mirror's writer could read as a number (a
 * numeric string too; NULL otherwise: those records are counted apart).
 */
import { COMPACT_LAYOUT, compileCatalogSql, withQueryGeometry } from '@eo/catalog-store';
import { CLOUD_COVER_BIN_WIDTH, CLOUD_COVER_BINS, type CatalogSearchRequest } from '@eo/domain';
import type Database from 'better-sqlite3';
import { MIRROR_ORG } from '../mirror/rows';
import { OfflineSearchError } from './catalog';
import { matchesKey } from './matches-key';

export interface CloudHistogram {
  /** `CLOUD_COVER_BINS` counts: bin i holds [10 i, 10 (i + 1)) %, the last also 100 %. */
  readonly bins: number[];
  /** Records matched (with and without a cloud value). */
  readonly total: number;
  /** Matches whose cloud cover is missing or not readable as a number. */
  readonly withoutCloud: number;
}

/** The request less its `eo:cloud_cover` condition (every other filter kept). */
export function withoutCloudFilter(req: CatalogSearchRequest): CatalogSearchRequest {
  if (req.query?.['eo:cloud_cover'] === undefined) return req;
  const { 'eo:cloud_cover': _cloud, ...query } = req.query;
  return { ...req, query };
}

/** Histograms kept at most until the catalog changes. */
const HISTOGRAMS_KEPT = 16;

/**
 * Needs `eo_intersects` and `eo_rfc3339` installed on `sqlite` (the offline search does it).
 * Answers are kept until the mirror says its catalog records changed (`invalidate`, where the
 * footprints' answer is dropped too): the bars leave out the cloud filter, so moving the cloud
 * slider asks for the same count again, and over 100,000 records it held the backend ~0.3 s each
 * time (a table lookup per match). Not "until anything writes": showing a thumbnail writes (its
 * last view, `imagery.touch`), and the app shows some after every search.
 */
export function makeCloudHistogram(sqlite: Database.Database) {
  const kept = new Map<string, CloudHistogram>();
  return {
    histogram(req: CatalogSearchRequest): CloudHistogram {
      const counted = withoutCloudFilter(req);
      const key = matchesKey(counted);
      let answer = kept.get(key);
      if (answer === undefined) {
        answer = count(sqlite, counted);
        if (kept.size >= HISTOGRAMS_KEPT) kept.clear();
        kept.set(key, answer);
      }
      return answer;
    },
    /** Forget every answer: the catalog records changed (a sync wrote, a merge, a clear). */
    invalidate(): void {
      kept.clear();
    },
  };
}

/** The bins of the matches of `req` (its cloud filter already left out). */
function count(sqlite: Database.Database, req: CatalogSearchRequest): CloudHistogram {
  const bins = new Array<number>(CLOUD_COVER_BINS).fill(0);
  let c;
  try {
    c = compileCatalogSql(MIRROR_ORG, req, COMPACT_LAYOUT);
  } catch (e) {
    // As the search: what the schema lets through but SQL cannot express is the caller's error.
    if (e instanceof RangeError) throw new OfflineSearchError([{ path: '', message: e.message }]);
    throw e;
  }
  if (c.empty) return { bins, total: 0, withoutCloud: 0 };
  // Clamped as `cloudCoverBin` clamps (CAST truncates: floor for the values kept); NULL (no
  // readable value) stays NULL.
  const bin = `max(0, min(${CLOUD_COVER_BINS - 1}, CAST(CAST(c.cloud_cover AS REAL) / ${CLOUD_COVER_BIN_WIDTH} AS INTEGER)))`;
  const sql = `SELECT ${bin} AS bin, count(*) AS n FROM ${c.from} WHERE ${c.where} GROUP BY 1`;
  const read = (params: Record<string, unknown>) =>
    sqlite.prepare(sql).all(params) as Array<{ bin: number | null; n: number }>;
  const rows =
    c.geometry === null
      ? read(c.params)
      : withQueryGeometry(sqlite, c.geometry, (token) => read({ ...c.params, token }));
  let total = 0;
  let withoutCloud = 0;
  for (const { bin: b, n } of rows) {
    total += n;
    if (b === null) withoutCloud += n;
    else bins[b] = n;
  }
  return { bins, total, withoutCloud };
}
