/**
 * Incremental sync: after a complete pass, a resource whose list the spec lets us filter by
 * change time is re-synced by asking only for what changed since the last complete pass
 * (watermark minus an overlap), upserting it and sweeping nothing. The watermark only moves
 * forward and never past the start of the pass that set it (a record dated in the future would
 * otherwise hide every later change until the next full pass). A full pass (which sweeps
 * deletions) runs when asked (`full`), when none has completed for `fullEveryUs`, when the
 * catalog plan changed, and always for resources the spec gives no change filter.
 *
 * Which lists can be filtered, per our spec (README "Incremental sync"):
 * - catalogs: `query` on the STAC property `updated` (4.3: "filter on STAC item properties",
 *   operator `gt`; `updated` is listed among a catalog record's properties, 2.1), written as the
 *   bare key, as the real service's own examples name properties (`"cloudcover"`);
 * - aois: the `updated_at` filter of GET /v0/aois (4.4), an interval `A/..`.
 * Orders, assets and indices have no time filter; order items only a creation range, which
 * misses status changes of existing items: those are full only.
 */
import type Database from 'better-sqlite3';
import { EoApiError, type BodyInput } from '@eo/api-client';
import { isoTimestamp } from '@eo/domain';
import type { SqlRow } from '@eo/catalog-store';
import type { syncIncremental } from '../mirror/schema';
import type { ResourceName } from '../mirror/writers';

/** A full pass at least this often (µs): the only passes that sweep deleted records. */
export const DEFAULT_FULL_EVERY_US = 24 * 3600 * 1_000_000;
/**
 * How far before the watermark an incremental pass asks from (µs): tolerates clock skew between
 * service hosts and records committed after later ones were listed. Re-fetched records are
 * upserted, so the overlap costs bytes, never correctness.
 */
export const INCREMENTAL_OVERLAP_US = 3600 * 1_000_000;

export type PassMode = 'full' | 'incremental';

/** The resources with a change filter in our spec. */
export const INCREMENTAL_RESOURCES: readonly ResourceName[] = ['catalogs', 'aois'];

/** The STAC property a catalog pass filters on, and how a search may already name it. */
const CATALOG_CHANGE_KEYS = ['properties.updated', 'updated'];

/** A `sync_incremental` row; `pass_mode` holds only what `PassMode` names. */
type Row = Omit<SqlRow<typeof syncIncremental>, 'resource' | 'pass_mode'> & { pass_mode: PassMode };

type CatalogSearch = Omit<BodyInput<'searchCatalogs'>, 'limit' | 'offset'>;

export interface IncrementalOptions {
  readonly fullEveryUs?: number;
  readonly overlapUs?: number;
}

export function makeIncremental(sqlite: Database.Database, options: IncrementalOptions = {}) {
  const fullEveryUs = options.fullEveryUs ?? DEFAULT_FULL_EVERY_US;
  const overlapUs = options.overlapUs ?? INCREMENTAL_OVERLAP_US;
  const get = sqlite.prepare('SELECT * FROM sync_incremental WHERE resource = ?');
  const setPass = sqlite.prepare(
    `INSERT INTO sync_incremental (resource, pass_mode, pass_since_us) VALUES (@resource, @mode, @since)
     ON CONFLICT(resource) DO UPDATE SET pass_mode = @mode, pass_since_us = @since`,
  );
  const complete = sqlite.prepare(
    `UPDATE sync_incremental SET watermark_us = @watermark,
       last_full_at_us = CASE WHEN pass_mode = 'full' THEN @now ELSE last_full_at_us END
     WHERE resource = @resource`,
  );
  const reject = sqlite.prepare(
    'UPDATE sync_incremental SET unsupported_json = ? WHERE resource = ?',
  );
  // The latest change time in the mirror: `properties.updated` as the writers read it
  // (`item_updated_us`, any readable instant).
  const catalogUpdated = sqlite
    .prepare('SELECT max(item_updated_us) FROM catalog_records WHERE item_updated_us <= ?')
    .pluck();
  // After an incremental pass only its own records can raise the watermark.
  const catalogUpdatedByPass = sqlite
    .prepare(
      `SELECT max(c.item_updated_us) FROM mirror_catalog_seen s
       JOIN catalog_records c ON c.id = s.record_id
       WHERE s.pass_id = ? AND c.item_updated_us <= ?`,
    )
    .pluck();
  const aoiUpdated = sqlite
    .prepare('SELECT max(updated_at_us) FROM mirror_aois WHERE updated_at_us <= ?')
    .pluck();

  const row = (resource: ResourceName) => get.get(resource) as Row | undefined;

  /**
   * The latest change time the pass's records show, up to `boundUs`: a record stamped later than
   * the pass began (a clock far ahead, a "2099") is kept as it came but not believed here.
   */
  function latestChange(
    resource: ResourceName,
    incremental: boolean,
    passId: string,
    boundUs: number,
  ) {
    if (resource === 'aois') return (aoiUpdated.get(boundUs) as number | null) ?? null;
    const latest = incremental
      ? catalogUpdatedByPass.get(passId, boundUs)
      : catalogUpdated.get(boundUs);
    return (latest as number | null) ?? null;
  }

  /**
   * The next watermark: never behind the last one (monotone), never past the pass's own start
   * (`boundUs`, on the service's clock): whatever changes after the pass began is asked for by
   * the next one. A watermark stored past that bound (by an earlier version) comes back to it.
   */
  function watermarkOf(
    resource: ResourceName,
    r: Row | undefined,
    passId: string,
    boundUs: number,
  ): number | null {
    const incremental = r?.pass_mode === 'incremental';
    const seen = latestChange(resource, incremental, passId, boundUs);
    const last = r?.watermark_us ?? null;
    const max = last === null ? seen : seen === null ? last : Math.max(last, seen);
    return max === null ? null : Math.min(max, boundUs);
  }

  return {
    /**
     * Chooses the mode of a new pass and records it. Incremental only when the resource has a
     * change filter the service accepted, a complete pass left a watermark, and the last full
     * pass is recent enough; `full` forces a full pass.
     */
    begin(
      resource: ResourceName,
      opts: { full: boolean; nowUs: number; catalog?: readonly CatalogSearch[] },
    ): void {
      const r = row(resource);
      const incremental =
        !opts.full &&
        INCREMENTAL_RESOURCES.includes(resource) &&
        (resource !== 'catalogs' || (opts.catalog ?? []).every((s) => !namesChangeKey(s))) &&
        r !== undefined &&
        r.unsupported_json === null &&
        r.watermark_us !== null &&
        r.last_full_at_us !== null &&
        opts.nowUs - r.last_full_at_us < fullEveryUs;
      setPass.run({
        resource,
        mode: incremental ? 'incremental' : 'full',
        since: incremental ? r.watermark_us! - overlapUs : null,
      });
    },
    /** The current pass's change filter lower bound (µs), or null for a full pass. */
    since(resource: ResourceName): number | null {
      const r = row(resource);
      return r?.pass_mode === 'incremental' ? r.pass_since_us : null;
    },
    /**
     * A pass completed (its records are in): the watermark moves, up to `startUs` (when the pass
     * began, on the service's clock); a full pass is remembered.
     */
    completed(resource: ResourceName, passId: string, nowUs: number, startUs: number): void {
      if (!INCREMENTAL_RESOURCES.includes(resource)) {
        setPass.run({ resource, mode: 'full', since: null });
        complete.run({ resource, watermark: null, now: nowUs });
        return;
      }
      complete.run({
        resource,
        watermark: watermarkOf(resource, row(resource), passId, startUs),
        now: nowUs,
      });
    },
    /**
     * The service refused the change filter: remembered (status shows it), and the resource is
     * synced in full from now on.
     */
    rejected(resource: ResourceName, error: EoApiError): void {
      reject.run(JSON.stringify({ status: error.status, message: error.message }), resource);
    },
  };
}

export type Incremental = ReturnType<typeof makeIncremental>;

/** A 4xx that means "this filter is not understood" (not auth, not throttling, not missing). */
export function isFilterRejection(e: unknown): e is EoApiError {
  return e instanceof EoApiError && (e.status === 400 || e.status === 422);
}

/** A catalog search narrowed to records changed after `sinceUs`. */
export function catalogChangedSince(search: CatalogSearch, sinceUs: number | null): CatalogSearch {
  if (sinceUs === null) return search;
  return {
    ...search,
    query: { ...search.query, updated: { gt: formatInstant(sinceUs) } },
  };
}

/** GET /v0/aois query narrowed to AOIs updated at or after `sinceUs`. */
export function aoisChangedSince(sinceUs: number | null): { updated_at?: string } {
  return sinceUs === null ? {} : { updated_at: `${formatInstant(sinceUs)}/..` };
}

/** GET /v0/order-items query narrowed to items created at or after `sinceUs`. */
export function orderItemsCreatedSince(sinceUs: number): { created_at: string } {
  return { created_at: `${formatInstant(sinceUs)}/..` };
}

/** RFC 3339 in UTC with µs, the layout every spec timestamp filter reads. */
const formatInstant = (us: number) => isoTimestamp.format(us, { offset: 'Z', fractionDigits: 6 });

/** A saved search that filters on the change time itself is synced in full (no merging). */
export function namesChangeKey(search: CatalogSearch): boolean {
  const q = search.query as Record<string, unknown> | undefined;
  return q !== undefined && CATALOG_CHANGE_KEYS.some((k) => k in q);
}
