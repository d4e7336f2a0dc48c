/**
 * Offline catalog search: the input of POST /v0/catalogs/search, validated with the same domain
 * schema, answered from the mirror by @eo/catalog-store (the SQL the service runs), shaped as
 * the service's response `{ catalogs, pagination: { limit, offset, total } }`. A caller that
 * validated the request at its own boundary already (the desktop's dispatch) passes the parsed
 * request to `.parsed()`, which does not parse it again.
 */
import {
  COMPACT_LAYOUT,
  makeCatalogListSearch,
  makeCatalogRecordReader as makeStoreRecordReader,
  makeCatalogSearch,
  type CatalogListRow,
  type CatalogRecordOut,
} from '@eo/catalog-store';
import {
  CatalogSearchRequest,
  type CatalogSearchRequestInput,
  type OffsetPagination,
} from '@eo/domain';
import type Database from 'better-sqlite3';
import { MIRROR_ORG } from '../mirror/rows';

export interface OfflineSearchIssue {
  /** Dotted path into the request (`query.gsd.lt`, `bbox`); empty for the whole body. */
  readonly path: string;
  readonly message: string;
}

/** A request the service would answer with 400: what is wrong, where. */
export class OfflineSearchError extends Error {
  readonly issues: readonly OfflineSearchIssue[];
  constructor(issues: readonly OfflineSearchIssue[]) {
    super(
      `invalid catalog search: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`,
    );
    this.name = 'OfflineSearchError';
    this.issues = issues;
  }
}

export interface OfflineSearchResult {
  readonly catalogs: CatalogRecordOut[];
  readonly pagination: OffsetPagination;
}

/** A page of result-list rows (`CatalogListRow`: columns only, no record read). */
export interface OfflineListResult {
  readonly rows: CatalogListRow[];
  readonly pagination: OffsetPagination;
}

/**
 * The search, and `notIndexed()`: how many mirrored catalog records have a datetime, cloud
 * cover, other typed property or footprint that could not be read (stored, but NULL there: a
 * filter on that field never matches them). Callers tell the user when it is not zero.
 */
export function makeOfflineCatalogSearch(sqlite: Database.Database) {
  const search = makeCatalogSearch(sqlite, COMPACT_LAYOUT);
  const list = makeCatalogListSearch(sqlite, COMPACT_LAYOUT);
  // Prepared on first use: a read-only copy of an older mirror (the search bench's cache) can
  // still be searched.
  let notIndexed: Database.Statement | undefined;
  const countNotIndexed = () =>
    (notIndexed ??= sqlite
      .prepare("SELECT count(*) FROM mirror_unindexed WHERE resource = 'catalogs'")
      .pluck()).get() as number;
  /** A request parsed with `CatalogSearchRequest` already: not parsed again. */
  const parsed = (req: CatalogSearchRequest): OfflineSearchResult => {
    const page = asSearchError(() => search(MIRROR_ORG, req));
    return {
      catalogs: page.json.map((j) => JSON.parse(j) as CatalogRecordOut),
      pagination: { limit: req.limit, offset: req.offset, total: page.total },
    };
  };
  /** The page as result-list rows, from columns (a parsed request, as `parsed`). */
  const rows = (req: CatalogSearchRequest): OfflineListResult => {
    const page = asSearchError(() => list(MIRROR_ORG, req));
    return {
      rows: page.rows,
      pagination: { limit: req.limit, offset: req.offset, total: page.total },
    };
  };
  const run = (input: CatalogSearchRequestInput | unknown): OfflineSearchResult =>
    parsed(parseOfflineSearch(input));
  return Object.assign(run, { notIndexed: countNotIndexed, parsed, rows });
}

/** What the schema lets through but SQL cannot express: the service's 400 too. */
function asSearchError<T>(run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof RangeError) throw new OfflineSearchError([{ path: '', message: e.message }]);
    throw e;
  }
}

/** A search body checked as the service checks it: what it would answer 400 to throws. */
export function parseOfflineSearch(input: unknown): CatalogSearchRequest {
  const checked = CatalogSearchRequest.safeParse(input ?? {});
  if (!checked.success) {
    throw new OfflineSearchError(
      checked.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    );
  }
  return checked.data;
}

/** One mirrored catalog record as the service sent it, by id; null when not mirrored. */
export function makeCatalogRecordReader(sqlite: Database.Database) {
  const records = makeStoreRecordReader(sqlite, COMPACT_LAYOUT);
  return (id: string): CatalogRecordOut | null => {
    const json = records.byId(MIRROR_ORG, id);
    return json === null ? null : (JSON.parse(json) as CatalogRecordOut);
  };
}
