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
import { randomUUID } from 'node:crypto';
import { EoApiError, type BodyInput, type EoClient, type Page } from '@eo/api-client';
import {
  CatalogSearchRequest,
  readId,
  SYNC_RESOURCES,
  type CatalogSearchRequestInput,
} from '@eo/domain';
import type { MirrorDatabase } from '../db/open';
import { makeMirrorWriters, type ResourceName } from '../mirror/writers';
import { makeOfflineCatalogSearch } from '../search/catalog';
import {
  incompleteMessage,
  listProblem,
  missingOnly,
  TotalWatch,
  type ListReport,
} from './completeness';
import {
  driftCounts,
  idFieldOf,
  makeDriftStore,
  pageDrift,
  writeDrift,
  type DriftInbox,
  type DriftIssue,
} from './drift';
import { describeSyncError, SyncBusyError } from './errors';
import {
  aoisChangedSince,
  catalogChangedSince,
  isFilterRejection,
  makeIncremental,
  namesChangeKey,
  orderItemsCreatedSince,
} from './incremental';
import { PassClock } from './pass-clock';
import { makePassIdSeeds, PassIds } from './pass-ids';
import { makeByIdChecks, MAX_SINGLE_ID_CHECKS } from './still-listed';
import { canonicalItems, storedVariants, variantMessage } from './variants';
import { syncReference, type ReferenceReport } from './reference';
import { makeSyncStateStore, type ResourceStatus } from './state';

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
} as const;

/**
 * How recent a completed pass must be for `eo sync` to leave its resource alone (unless
 * `--full`): on a link that drops every few seconds, walking complete resources again on every
 * run would leave no time for the unfinished one.
 */
export const RECENT_COMPLETE_MS = 10 * 60_000;

export interface SyncProgress {
  readonly resource: ResourceName;
  /** Records received by this pass so far (committed; skipped ones included). */
  readonly seen: number;
  /** The service's total, when known. */
  readonly total: number | null;
  /** The list being paged (catalog search, AOI) and how many there are. */
  readonly part: number;
  readonly parts: number;
  readonly done: boolean;
}

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
   * Default `DEFAULT_PULL.prefetch` (true: a window of 0 to 4 pages sized from the measured
   * link, none when the service answers fast next to our writes); `false` off; a number fixes
   * the depth. Checkpoints stay exact: they move by the pages handed over, which come in order.
   */
  readonly prefetch?: boolean | number;
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

type PageSource = (offset: number, signal: AbortSignal | undefined) => AsyncIterable<Page<unknown>>;

export function createSyncEngine(options: SyncEngineOptions) {
  const { db, client } = options;
  const sqlite = db.sqlite;
  const pageSize = options.pageSize ?? DEFAULT_PULL.pageSize;
  const batchRecords = options.batchRecords ?? DEFAULT_PULL.batchRecords;
  const batchMs = options.batchMs ?? DEFAULT_PULL.batchMs;
  const nowUs = options.nowUs ?? (() => Date.now() * 1000);
  const prefetch = options.prefetch ?? DEFAULT_PULL.prefetch;
  const writers = makeMirrorWriters(sqlite);
  const states = makeSyncStateStore(sqlite);
  const driftStore = makeDriftStore(sqlite);
  const inbox = options.drift;
  const searches = catalogSearches(options.catalog ?? 'all');
  const incremental = makeIncremental(sqlite, {
    fullEveryUs: options.fullEveryUs,
    overlapUs: options.incrementalOverlapUs,
  });
  const aoiIds = sqlite.prepare('SELECT aoi_id FROM mirror_aois ORDER BY aoi_id');
  const seedsOf = makePassIdSeeds(sqlite);

  /** What a resource's pass pages through: the catalog searches; nothing for the others. */
  const planOf = (resource: ResourceName) =>
    resource === 'catalogs' ? JSON.stringify(searches) : '';

  /** An interrupted pass under the same plan: the next sync goes on with it. */
  function resumable(resource: ResourceName): boolean {
    const state = states.get(resource);
    return (
      state !== undefined &&
      state.passId !== null &&
      state.finishedAtUs === null &&
      state.plan === planOf(resource)
    );
  }

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
      state.plan === planOf(resource) &&
      nowUs() - state.lastCompleteAtUs < ms * 1000
    );
  }

  /** The lists a resource's pass pages through, in a stable order. */
  function partsOf(resource: ResourceName, since: number | null): PageSource[] {
    const o = (signal: AbortSignal | undefined) => ({ pageSize, signal, prefetch });
    switch (resource) {
      case 'orders':
        return [(offset, s) => client.pages.orders({ offset }, o(s))];
      case 'orderItems':
        return [(offset, s) => client.pages.orderItems({ offset }, o(s))];
      case 'aois':
        return [(offset, s) => client.pages.aois({ ...aoisChangedSince(since), offset }, o(s))];
      case 'indices':
        return [(offset, s) => client.pages.indices({ offset }, o(s))];
      case 'catalogs':
        return searches.map(
          (search) => (offset, s) =>
            client.pages.catalogs({ ...catalogChangedSince(search, since), offset }, o(s)),
        );
      case 'assets':
        return (aoiIds.all() as Array<{ aoi_id: string }>).map(
          ({ aoi_id }) =>
            (offset, s) =>
              assetsOf(aoi_id, client.pages.aoiAssets(aoi_id, { offset }, o(s))),
        );
    }
  }

  /** A resource's pass; an incremental one whose filter the service refuses becomes full. */
  async function syncResource(
    resource: ResourceName,
    signal: AbortSignal | undefined,
    onProgress: SyncOptions['onProgress'],
    full: boolean,
  ): Promise<void> {
    try {
      await runPass(resource, signal, onProgress, full);
    } catch (e) {
      if (incremental.since(resource) === null || !isFilterRejection(e)) throw e;
      incremental.rejected(resource, e);
      states.finishIncomplete(resource, nowUs()); // what it upserted stays; a new pass starts
      await runPass(resource, signal, onProgress, true);
    }
  }

  /** A pass's counters, moved by each commit. */
  interface PassCounters {
    seen: number;
    total: number | null;
  }

  /**
   * Pages through one list of a pass from `next`, committing batches with their checkpoint, and
   * reports what it brought (completeness.ts judges it).
   */
  async function walkList(
    resource: ResourceName,
    pass: { passId: string; part: number; parts: number; from: number },
    ids: PassIds,
    counters: PassCounters,
    source: PageSource,
    signal: AbortSignal | undefined,
    onCommit: () => void,
    clock: PassClock,
  ): Promise<ListReport> {
    const writer = writers[resource];
    const { passId, part } = pass;
    const field = idFieldOf(resource);
    const seenBefore = counters.seen - pass.from;
    let next = pass.from;
    let buffer: unknown[] = [];
    let drifted: DriftIssue[] = [];
    let lastCommit = Date.now();
    let repeats = 0;
    const totals = new TotalWatch();
    // Writers never throw for a record's content: what they could not index or store is drift,
    // counted in the transaction that moves the checkpoint past it.
    const commit = sqlite.transaction(
      (items: unknown[], pageIssues: DriftIssue[], at: number, partTotal: number | null) => {
        const issues = [...pageIssues, ...writeDrift(writer.write(items, passId))];
        driftStore.sample(resource, passId, issues);
        counters.seen += items.length;
        counters.total = partTotal === null ? null : seenBefore + partTotal;
        const where = { part, checkpoint: at, seen: counters.seen, total: counters.total };
        states.checkpoint(resource, where, driftCounts(issues));
      },
    );
    let end: Page<unknown>['end'];
    let skipped = false;
    inbox?.take(); // reports from before this list's first page are not about its records
    try {
      for await (const page of source(next, signal)) {
        if (inbox) drifted.push(...pageDrift(resource, inbox.take(), page.items, buffer.length));
        clock.saw(page.serverDateMs);
        // Each id under the spelling the pass stores it under; a repeat counts once.
        const c = canonicalItems(resource, field, part, page.items, ids, buffer.length);
        drifted.push(...c.issues);
        repeats += c.repeats;
        buffer.push(...c.items);
        next = page.offset + page.items.length;
        totals.see(page.total);
        end = page.end;
        if (buffer.length >= batchRecords || Date.now() - lastCommit >= batchMs) {
          commit(buffer, drifted, next, totals.last);
          buffer = [];
          drifted = [];
          lastCommit = Date.now();
          onCommit();
        }
        signal?.throwIfAborted();
      }
    } catch (e) {
      // An AOI deleted since the AOI pass has no assets to page: skip its list.
      if (!(resource === 'assets' && e instanceof EoApiError && e.status === 404)) throw e;
      skipped = true;
    }
    commit(buffer, drifted, next, totals.last);
    return {
      end: skipped ? undefined : end,
      records: next,
      distinct: ids.known(part) ? ids.distinct(part) : null,
      repeats,
      total: skipped ? null : totals.last,
      shrank: totals.shrank,
    };
  }

  /**
   * Records of list `part` changed since the pass began (catalog `updated`, AOI `updated_at`,
   * order item `created_at`): a record inserted before the page being read is on no page of an
   * offset pass. Written with the pass's stamp and counted as seen. False where the list has no
   * such filter.
   */
  async function lookInWindow(
    resource: ResourceName,
    part: number,
    passId: string,
    sinceUs: number,
    ids: PassIds,
    signal: AbortSignal | undefined,
  ): Promise<boolean> {
    const o = { pageSize, signal, prefetch: false };
    const search = searches[part]!;
    const pages =
      resource === 'catalogs' && !namesChangeKey(search)
        ? client.pages.catalogs(catalogChangedSince(search, sinceUs), o)
        : resource === 'aois'
          ? client.pages.aois(aoisChangedSince(sinceUs), o)
          : resource === 'orderItems'
            ? client.pages.orderItems(orderItemsCreatedSince(sinceUs), o)
            : null;
    if (pages === null) return false;
    const writer = writers[resource];
    const field = idFieldOf(resource);
    const write = sqlite.transaction((items: unknown[], issues: DriftIssue[]) => {
      driftStore.sample(resource, passId, [...issues, ...writeDrift(writer.write(items, passId))]);
    });
    for await (const page of pages) {
      const c = canonicalItems(resource, field, part, page.items, ids, 0);
      write(c.items, c.issues);
    }
    return true;
  }

  async function runPass(
    resource: ResourceName,
    signal: AbortSignal | undefined,
    onProgress: SyncOptions['onProgress'],
    full: boolean,
  ): Promise<void> {
    const writer = writers[resource];
    const plan = planOf(resource);
    if (!resumable(resource)) {
      // A new pass: none to resume, or the one interrupted paged other searches. Full or
      // incremental is decided now and kept if it is interrupted (a changed plan is full, and so
      // is the pass after a full one that ended incomplete: its deletions are still to sweep).
      const previous = states.get(resource);
      const planChanged = previous !== undefined && previous.plan !== plan;
      const redo = previous?.incomplete === true && previous.passMode === 'full';
      incremental.begin(resource, {
        full: full || planChanged || redo,
        nowUs: nowUs(),
        catalog: searches,
      });
      states.start(resource, randomUUID(), plan, nowUs());
      driftStore.clear(resource);
    }
    const state = states.get(resource)!;
    const passId = state.passId!;
    const since = incremental.since(resource);
    const parts = partsOf(resource, since);
    const counters: PassCounters = { seen: state.seen, total: state.total };
    const progress = (part: number, done: boolean) =>
      onProgress?.({ resource, ...counters, part, parts: parts.length, done });
    const ids = new PassIds();
    const clock = new PassClock(state.startedAtUs, nowUs);
    // Lists an earlier run of this pass could not know whole: they keep it incomplete.
    const earlier = driftStore.notes(resource, passId).length > 0;
    const reports = new Map<number, ListReport>();
    const aoiOf = resource === 'assets' ? (aoiIds.all() as Array<{ aoi_id: string }>) : [];

    for (let part = state.part; part < parts.length; part++) {
      const from = part === state.part ? state.checkpoint : 0;
      if (from > 0) {
        // A list resumed from its checkpoint: the ids it brought before count as seen.
        const scope = { part, parts: parts.length, aoiId: aoiOf[part]?.aoi_id };
        const seeds = seedsOf(resource, passId, scope);
        ids.seed(part, seeds.ids, seeds.exact);
      }
      const report = await walkList(
        resource,
        { passId, part, parts: parts.length, from },
        ids,
        counters,
        parts[part]!,
        signal,
        () => progress(part, false),
        clock,
      );
      let problem = listProblem(report);
      if (problem !== null && missingOnly(report)) {
        // Records inserted before the page being read are on no page: ask for what changed
        // since the pass began, where the list can be asked so.
        if (await lookInWindow(resource, part, passId, clock.windowStartUs(), ids, signal))
          problem = listProblem(recount(report, ids, part));
      }
      reports.set(part, report);
      if (problem !== null)
        driftStore.note(resource, passId, incompleteMessage(resource, part, parts.length, problem));
      // The list is done: the checkpoint moves to the start of the next one.
      if (part + 1 < parts.length)
        states.checkpoint(resource, {
          part: part + 1,
          checkpoint: 0,
          seen: counters.seen,
          total: counters.total,
        });
      progress(part, false);
    }
    // One row per record whatever the spelling of its id (variants.ts).
    mergeVariants(resource, passId, ids, since === null);
    if (since === null && !earlier) {
      // Before a sweep, and to complete lists whose pages skipped records: the records the pass
      // did not see, asked by id where the service can be asked so; then each list judged again.
      let missing = 0;
      for (const [part, r] of reports) if (missingOnly(r)) missing += r.total! - ids.distinct(part);
      await keepStillListed(resource, passId, ids, missing, signal);
      driftStore.dropNotes(resource, passId);
      for (const [part, r] of reports) {
        const problem = listProblem(recount(r, ids, part));
        if (problem !== null)
          driftStore.note(
            resource,
            passId,
            incompleteMessage(resource, part, parts.length, problem),
          );
      }
    }
    if (driftStore.notes(resource, passId).length > 0) {
      // A list not known whole (this run's or an earlier run's of the same pass): what the pass
      // did not see may still be listed, so nothing is swept; the pass is over (incomplete) and
      // the next sync starts a new one.
      states.finishIncomplete(resource, nowUs());
      progress(parts.length, true);
      return;
    }
    // An incremental pass saw only what changed: it sweeps nothing (deletions wait for a full pass).
    sqlite.transaction(() => {
      const removed = since === null ? writer.sweep(passId) : 0;
      const now = nowUs();
      states.finish(resource, removed, now);
      incremental.completed(resource, passId, now, clock.startUs());
    })();
    progress(parts.length, true);
  }

  const byId = makeByIdChecks(client, searches);

  /**
   * Records the pass stored under a new spelling while the mirror holds them under another (an
   * id upper-cased or padded on some page): merged into the row the mirror had, under its
   * spelling, and reported as drift. `full`: looked for among the rows the pass did not see.
   */
  function mergeVariants(resource: ResourceName, passId: string, ids: PassIds, full: boolean) {
    const writer = writers[resource];
    if (!writer.read || !writer.remove) return;
    const pairs = storedVariants(writer, passId, ids, full, () => ids.norms());
    if (pairs.length === 0) return;
    const field = idFieldOf(resource);
    sqlite.transaction(() => {
      const issues: DriftIssue[] = [];
      for (const [stored, seen] of pairs) {
        const record = writer.read!(seen);
        if (!isRecord(record)) continue;
        writer.remove!([seen]);
        writer.write([{ ...record, [field]: stored }], passId);
        ids.respell(seen, stored);
        const message = variantMessage(resource, seen, stored);
        issues.push({
          source: 'schema',
          index: issues.length,
          recordId: stored,
          path: field,
          message,
        });
      }
      driftStore.sample(resource, passId, issues);
      const st = states.get(resource)!;
      const at = { part: st.part, checkpoint: st.checkpoint, seen: st.seen, total: st.total };
      states.checkpoint(resource, at, driftCounts(issues));
    })();
  }

  /**
   * Before a sweep, asks the service by id for the rows the pass did not see: offset paging
   * skips a record when the list moves or the service repeats another, and such a record must
   * not be swept. Those still listed are stamped with the pass and counted as seen by the list
   * that lists them. One-id checks run only while `missing` records are unaccounted for.
   */
  async function keepStillListed(
    resource: ResourceName,
    passId: string,
    ids: PassIds,
    missing: number,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const check = byId[resource];
    const writer = writers[resource];
    if (!check || !writer.unseen) return;
    let unseen = writer.unseen(passId);
    if (check.perRequest === 1) {
      if (missing <= 0) return;
      unseen = unseen.slice(0, MAX_SINGLE_ID_CHECKS);
    }
    const field = idFieldOf(resource);
    const keep = sqlite.transaction((items: readonly unknown[]) => {
      writer.write(items, passId);
    });
    let found = 0;
    for (let i = 0; i < unseen.length; i += check.perRequest) {
      for await (const { part, items } of check.find(
        unseen.slice(i, i + check.perRequest),
        signal,
      )) {
        keep(items);
        for (const item of items) {
          const id = isRecord(item) ? readId(item[field]) : null;
          if (id !== null && !ids.see(part, id).repeat) found++;
        }
      }
      if (check.perRequest === 1 && found >= missing) return;
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
        const order = [...todo.filter(resumable), ...todo.filter((r) => !resumable(r))];
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
        syncing.delete(sqlite);
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
function catalogSearches(
  catalog: 'all' | readonly CatalogSearchRequestInput[],
): Array<Omit<BodyInput<'searchCatalogs'>, 'limit' | 'offset'>> {
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

/** A list's report with the distinct ids its checks have added since. */
function recount(r: ListReport, ids: PassIds, part: number): ListReport {
  return r.distinct === null ? r : { ...r, distinct: ids.distinct(part) };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An AOI's assets, each carrying its AOI id (the list is per AOI; a record may omit it). */
async function* assetsOf(
  aoiId: string,
  pages: AsyncIterable<Page<unknown>>,
): AsyncIterable<Page<unknown>> {
  for await (const page of pages) {
    yield {
      ...page,
      items: page.items.map((a) =>
        typeof a === 'object' && a !== null && !('aoi_id' in a && a.aoi_id)
          ? { ...a, aoi_id: aoiId }
          : a,
      ),
    };
  }
}
