/**
 * The pull engine: brings the mirror level with the service, one resource at a time.
 *
 * A pass pages through a resource's lists from the start, upserting each record stamped with
 * the pass id. Pages are written in batches (several pages, or whatever arrived within a time
 * budget, per transaction: one transaction per 100-record page runs at a third of the speed),
 * and the same transaction moves the checkpoint (list + next offset) past them. An interrupted
 * pass (abort, network loss, crash) leaves its checkpoint: the next sync resumes the same pass
 * there, so committed pages are not fetched again. When the last page is in, the pass sweeps the
 * rows no page of it saw (mark and sweep) and is complete; a pass that never completes deletes
 * nothing.
 *
 * One sync at a time per database (whichever engine started it): `sync()` while another runs
 * rejects with SyncBusyError (joining would hand the caller a result for resources it may not
 * have asked for).
 */
import type { BodyInput, EoClient } from '@eo/api-client';
import { CatalogSearchRequest, SYNC_RESOURCES, type CatalogSearchRequestInput } from '@eo/domain';
import type { MirrorDatabase } from '../db/open';
import type { ResourceName } from '../mirror/writers';
import { makeOfflineCatalogSearch } from '../search/catalog';
import { batchStoresOf, makeBatchCommit } from './batch-commit';
import type { DriftInbox } from './drift';
import { describeSyncError, SyncBusyError } from './errors';
import { isFilterRejection, makeIncremental } from './incremental';
import { planOf, type CatalogSearch, type PassContext, type SyncProgress } from './pass-context';
import { makePassIdSeeds } from './pass-ids';
import { resumable, runPass, type OnProgress } from './pass';
import { makeByIdChecks } from './still-listed';
import { syncReference, type ReferenceReport } from './reference';
import type { ResourceStatus } from './state';
import { startWriteThread, type WriteThread } from './write-thread';

export type { SyncProgress } from './pass-context';

/** The order a full sync runs in (defined once, in @eo/domain). */
export const RESOURCES: readonly ResourceName[] = SYNC_RESOURCES;

/**
 * Pull defaults (bench/first-sync.ts measures them against a hand-written floor): pages as
 * large as the service allows, commits of several pages or one per time budget, and the
 * api-client's adaptive read-ahead (`prefetch: true`).
 */
export const DEFAULT_PULL = {
  pageSize: 1000,
  batchRecords: 5000,
  batchMs: 1000,
  prefetch: true,
  writeThreadFrom: 20_000,
} as const;

/**
 * How recent a completed pass must be for `eo sync` to leave its resource alone (unless
 * `--full`): on a link that drops every few seconds, walking complete resources again on every
 * run would leave no time for the unfinished one.
 */
export const RECENT_COMPLETE_MS = 10 * 60_000;

export interface SyncOptions {
  /** Default: every resource, in RESOURCES order. */
  readonly resources?: readonly ResourceName[];
  readonly signal?: AbortSignal;
  /** Called after every commit and when a resource's pass completes. */
  readonly onProgress?: (p: SyncProgress) => void;
  /**
   * Leave alone a resource whose last pass (under the same plan) completed less than this many
   * ms ago and has none interrupted since. Default 0: every requested resource is walked.
   */
  readonly skipCompletedWithinMs?: number;
  /**
   * Start full passes (which sweep deletions) instead of incremental ones for the resources
   * that start a new pass; an interrupted pass is resumed as it was. Default false: full only
   * when `fullEveryUs` has passed since the last full pass (pull/incremental.ts).
   */
  readonly full?: boolean;
  /**
   * Read the service's reference lists (projects, bandsets, satellites, workflows) first, inside
   * the sync (reference.ts). Default false here (benches and request-counting tests measure the
   * records alone); `mirror.sync()` and `eo sync` ask for them.
   */
  readonly reference?: boolean;
}

export interface SyncEngineOptions {
  readonly db: MirrorDatabase;
  readonly client: EoClient;
  /**
   * What to mirror of the catalog: `'all'` (default), or saved searches / areas whose results
   * are unioned. Each is validated as a POST /v0/catalogs/search body (limit/offset ignored).
   */
  readonly catalog?: 'all' | readonly CatalogSearchRequestInput[];
  /** Records per list request (default `DEFAULT_PULL.pageSize`). */
  readonly pageSize?: number;
  /** Commit when this many records are buffered (default `DEFAULT_PULL.batchRecords`)... */
  readonly batchRecords?: number;
  /** ...or when this long has passed since the last commit (default `DEFAULT_PULL.batchMs`). */
  readonly batchMs?: number;
  /**
   * api-client read-ahead: pages requested while earlier ones are validated and written.
   * Default `DEFAULT_PULL.prefetch` (true: a window of 0 to 5 pages sized from the measured
   * link, none when the service answers fast next to our writes); `false` off; a number fixes
   * the depth. Checkpoints stay exact: they move by the pages handed over, which come in order.
   */
  readonly prefetch?: boolean | number;
  /**
   * A list whose first page says it holds at least this many records commits its batches from
   * a write thread, while this thread reads on (`write-thread.ts`); default
   * `DEFAULT_PULL.writeThreadFrom`. `false`: every batch on the engine's connection. A shorter
   * list does not pay for the thread's start (a connection and the writers' modules loaded).
   */
  readonly writeThreadFrom?: number | false;
  /** Clock (µs), for the timestamps of sync_state. */
  readonly nowUs?: () => number;
  /**
   * Where the client's schema drift reports arrive (`createDriftInbox()`, whose `onSchemaDrift`
   * the client was built with): drift is then counted per resource with samples (see drift.ts).
   * Without it only what the writers could not index or store is counted.
   */
  readonly drift?: DriftInbox;
  /** A full pass at least this often (µs; default `DEFAULT_FULL_EVERY_US`, 24 h). */
  readonly fullEveryUs?: number;
  /** How far before the watermark incremental passes ask from (µs; `INCREMENTAL_OVERLAP_US`, 1 h). */
  readonly incrementalOverlapUs?: number;
}

export interface SyncReport {
  readonly resources: ResourceStatus[];
  /** Requested resources left alone: completed within `skipCompletedWithinMs`. */
  readonly skipped: ResourceName[];
  /** The reference lists' report, when `reference` was asked for. */
  readonly reference?: ReferenceReport;
}

/** Databases a sync is running on: one at a time per database, whichever engine started it. */
const syncing = new WeakSet<object>();

/** Whether a sync is running on this connection (whichever engine started it). */
export const isSyncing = (sqlite: object): boolean => syncing.has(sqlite);

export function createSyncEngine(options: SyncEngineOptions) {
  const { db, client } = options;
  const sqlite = db.sqlite;
  const searches = catalogSearches(options.catalog ?? 'all');
  const aoiIds = sqlite.prepare('SELECT aoi_id FROM mirror_aois ORDER BY aoi_id');
  const stores = batchStoresOf(sqlite);
  const threadFrom = options.writeThreadFrom ?? DEFAULT_PULL.writeThreadFrom;
  // Started by the first long list of a sync, ended with the sync.
  let thread: WriteThread | null = null;
  const ctx: PassContext = {
    sqlite,
    client,
    writers: stores.writers,
    commitBatch: makeBatchCommit(stores),
    writeThreadFor(_resource, total) {
      if (threadFrom === false || sqlite.memory || total === undefined || total < threadFrom)
        return null;
      thread ??= startWriteThread(db.file);
      return thread;
    },
    reloadWriters() {
      const fresh = batchStoresOf(sqlite);
      ctx.writers = fresh.writers;
      ctx.commitBatch = makeBatchCommit(fresh);
    },
    states: stores.states,
    driftStore: stores.driftStore,
    inbox: options.drift,
    searches,
    incremental: makeIncremental(sqlite, {
      fullEveryUs: options.fullEveryUs,
      overlapUs: options.incrementalOverlapUs,
    }),
    byId: makeByIdChecks(client, searches),
    seedsOf: makePassIdSeeds(sqlite),
    aoiIds: () => aoiIds.all() as Array<{ aoi_id: string }>,
    pageSize: options.pageSize ?? DEFAULT_PULL.pageSize,
    batchRecords: options.batchRecords ?? DEFAULT_PULL.batchRecords,
    batchMs: options.batchMs ?? DEFAULT_PULL.batchMs,
    prefetch: options.prefetch ?? DEFAULT_PULL.prefetch,
    nowUs: options.nowUs ?? (() => Date.now() * 1000),
  };
  const { states, driftStore, incremental, nowUs } = ctx;
  const resumes = (resource: ResourceName) => resumable(ctx, resource);

  /**
   * Its last pass, under the same plan, completed less than `ms` ago (an incomplete one, short of
   * the service's total, is never left alone: the next sync tries again).
   */
  function completedWithin(resource: ResourceName, ms: number): boolean {
    const state = states.get(resource);
    return (
      ms > 0 &&
      state !== undefined &&
      state.finishedAtUs !== null &&
      !state.incomplete &&
      state.lastCompleteAtUs !== null &&
      state.plan === planOf(ctx, resource) &&
      nowUs() - state.lastCompleteAtUs < ms * 1000
    );
  }

  /** A resource's pass; an incremental one whose filter the service refuses becomes full. */
  async function syncResource(
    resource: ResourceName,
    signal: AbortSignal | undefined,
    onProgress: OnProgress,
    full: boolean,
  ): Promise<void> {
    try {
      await runPass(ctx, resource, signal, onProgress, full);
    } catch (e) {
      if (incremental.since(resource) === null || !isFilterRejection(e)) throw e;
      incremental.rejected(resource, e);
      states.finishIncomplete(resource, nowUs()); // what it upserted stays; a new pass starts
      await runPass(ctx, resource, signal, onProgress, true);
    }
  }

  return {
    /** Brings the mirror level with the service; resumes interrupted passes first. */
    async sync(opts: SyncOptions = {}): Promise<SyncReport> {
      const resources = opts.resources ?? RESOURCES;
      const unknown = resources.filter((r) => !RESOURCES.includes(r));
      if (unknown.length > 0)
        throw new RangeError(
          `unknown resources: ${unknown.join(', ')} (known: ${RESOURCES.join(', ')})`,
        );
      if (syncing.has(sqlite)) throw new SyncBusyError();
      syncing.add(sqlite);
      try {
        // First: a few small reads, so forms know the ids even if a long pass is interrupted.
        const reference = opts.reference
          ? await syncReference(sqlite, client, { signal: opts.signal })
          : undefined;
        // Interrupted passes first (a link that keeps dropping still finishes them), then the
        // rest in RESOURCES order, less those completed just now when asked to skip them.
        const skipped = resources.filter((r) =>
          completedWithin(r, opts.skipCompletedWithinMs ?? 0),
        );
        const todo = resources.filter((r) => !skipped.includes(r));
        const order = [...todo.filter(resumes), ...todo.filter((r) => !resumes(r))];
        for (const resource of order) {
          opts.signal?.throwIfAborted();
          try {
            await syncResource(resource, opts.signal, opts.onProgress, opts.full ?? false);
          } catch (e) {
            if (states.get(resource)) states.fail(resource, describeSyncError(e));
            throw e;
          }
        }
        return { resources: states.all(), skipped, ...(reference ? { reference } : {}) };
      } finally {
        try {
          await thread?.close();
        } finally {
          thread = null;
          syncing.delete(sqlite);
        }
      }
    },
    /** POST /v0/catalogs/search answered from the mirror (throws OfflineSearchError when invalid). */
    searchCatalog: makeOfflineCatalogSearch(sqlite),
    /**
     * Where each resource's pass stands (resources never synced are absent), with its drift,
     * skipped and not-indexed counts and whether the last pass was incomplete.
     */
    status(): ResourceStatus[] {
      return states.all();
    },
    /** The sample of drift issues of each resource's current pass (`eo status --drift`). */
    driftSamples: () => driftStore.samples(),
    get running(): boolean {
      return syncing.has(sqlite);
    },
  };
}

export type SyncEngine = ReturnType<typeof createSyncEngine>;

/** The catalog searches a pass pages through, validated; `'all'` is one unfiltered search. */
function catalogSearches(catalog: 'all' | readonly CatalogSearchRequestInput[]): CatalogSearch[] {
  if (catalog === 'all') return [{}];
  return catalog.map((s, i) => {
    const r = CatalogSearchRequest.safeParse(s);
    if (!r.success)
      throw new RangeError(`catalog[${i}]: ${r.error.issues[0]?.message ?? 'invalid search'}`);
    // Paging is the engine's; the search keeps its filters and sort only.
    const { limit: _limit, offset: _offset, ...filters } = s as BodyInput<'searchCatalogs'>;
    return filters;
  });
}
