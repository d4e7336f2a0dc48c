/**
 * The mirror database behind one interface: whoever holds a `Mirror` searches the catalog,
 * reads records, gets suggestions, reads the sync status, clears what was pulled, queues
 * creates and brings the mirror level with a service, without naming a table. Nothing outside
 * @eo/sync runs SQL on these tables (the desktop backend holds a Mirror, never the database).
 *
 * The service's client is given per operation (`sync`, `flush`, `refreshCreated`), never at
 * opening: the mirror and its outbox outlive any one connection (a field team queues creates
 * before a service is configured, and the URL or key may change while the app runs).
 */
import type { EoClient } from '@eo/api-client';
import type {
  CatalogSearchRequest,
  IdempotencyPolicy,
  OutboxKind,
  SavedArchiveSearchInput,
  ServiceOrigin,
} from '@eo/domain';
import {
  makeFieldPackages,
  type FieldPackages,
  type PixelSink,
  type PixelSource,
} from '../field-package/index';
import { openMirrorDatabase, type OpenMirrorOptions } from '../db/open';
import {
  createOutbox,
  type FlushOptions,
  type FlushProgress,
  type Outbox,
  type OutboxEntry,
} from '../outbox/index';
import type { DriftSample } from '../pull/drift';
import {
  createSyncEngine,
  isSyncing,
  type SyncEngineOptions,
  type SyncOptions,
  type SyncReport,
} from '../pull/engine';
import { SyncBusyError } from '../pull/errors';
import {
  parseArchiveSearches,
  syncArchive,
  type ArchiveProgress,
  type ArchiveReport,
} from '../pull/archive';
import {
  makeArchiveReads,
  type ArchiveCounts,
  type ArchiveScene,
  type ArchiveSearchStatus,
} from './archive';
import { makeDriftStore } from '../pull/drift';
import { makeSyncStateStore, type ResourceStatus } from '../pull/state';
import {
  makeCatalogRecordReader,
  makeOfflineCatalogSearch,
  type OfflineListResult,
  type OfflineSearchResult,
} from '../search/catalog';
import { makeCatalogFootprints, type CatalogFootprints } from '../search/footprints';
import { makeCloudHistogram, type CloudHistogram } from '../search/cloud-histogram';
import {
  filterAois,
  filterAssets,
  filterIndices,
  filterOrderItems,
  filterOrders,
  type AoiFilter,
  type AssetFilter,
  type IndexFilter,
  type OrderFilter,
  type OrderItemFilter,
} from '../search/local-filters';
import type { CatalogRecordOut } from '@eo/catalog-store';
import { syncImagery, type ImageryReport, type ImagerySyncOptions } from '../pull/imagery';
import {
  makeImageryStore,
  type ImageryCounts,
  type ImageryVariant,
  type StoredIndexMap,
} from './imagery';
import { makeOfflineRasters, type OfflineRasters } from '../offline/index';
import { makePackageRasters } from '../offline/package-rasters';
import { makeCreatedRecords, type CreatedRecords } from './created';
import { makeLookups, type Lookups } from './lookups';
import { makeOutboxMirror } from './outbox-mirror';
import { refreshCreated, type RefreshCreatedReport } from './refresh-created';
import { unfinishedAois } from './refresh-aois';
import { unfinishedOrders } from './refresh-orders';
import { makeMirrorTables } from './tables';
import { makeRecordPacking, type PackRecordsOptions } from './packing';
import { makeMirrorOrigin } from './origin';
import { makeHandoverFiles, type HandoverFiles } from './handover-file';
import type { WireRecord } from './rows';
import type { SyncResource } from '@eo/domain';
import type { PackingProgress } from '@eo/catalog-store';

export interface MirrorOptions {
  /** The outbox's Idempotency-Key policy (a function is asked at each flush). Default `auto`. */
  readonly idempotency?: IdempotencyPolicy | (() => IdempotencyPolicy) | undefined;
  /** A create was sent but could not be written into the mirror (the next sync brings it). */
  readonly onMirrorError?: ((err: unknown, entry: OutboxEntry) => void) | undefined;
  /** A delivery of a queued order's items waits for them to complete (the outbox's option). */
  readonly waitForOrderItems?: boolean | undefined;
  /** Progress of the one-time move of an older mirror's catalog into the compact layout. */
  readonly onUpgrade?: OpenMirrorOptions['onUpgrade'];
  /** Where field packages' rasters come from and go (default: the mirror's offline rasters). */
  readonly pixels?: (PixelSource & PixelSink) | undefined;
}

/** A sync's plan and tuning (the engine's options) with the run's own (`resources`, signal...). */
export type MirrorSyncOptions = SyncOptions &
  Omit<SyncEngineOptions, 'db' | 'client'> & {
    /** Quicklooks of the mirrored catalog records, fetched after the records (default none). */
    readonly imagery?: Omit<ImagerySyncOptions, 'signal'> | undefined;
    /**
     * Read the service's reference lists (projects, bandsets, satellites, workflows) for form
     * choices before the records (default true here; the engine reads them: `pull/reference.ts`).
     */
    readonly reference?: boolean | undefined;
    /**
     * The saved archive searches whose scenes are kept (pull/archive.ts), run after the records
     * and before the quicklooks (which then include theirs). Undefined: the archive pass does not
     * run and what it kept stays; `[]`: every kept scene is dropped.
     */
    readonly archive?: readonly SavedArchiveSearchInput[] | undefined;
    /** Called as the archive pass goes (after each page and each search). */
    readonly onArchiveProgress?: ((p: ArchiveProgress) => void) | undefined;
    /**
     * What the mirror records as its service (the origin field packages and handed-over
     * outboxes are checked against): default the client's URL's origin; the desktop names its
     * embedded service, whose port changes every launch.
     */
    readonly service?: string | undefined;
  };

/** The records' report, the reference lists', and the quicklooks' when `imagery` was asked for. */
export type MirrorSyncReport = SyncReport & {
  readonly imagery?: ImageryReport;
  readonly archive?: ArchiveReport;
};

export interface MirrorFlushOptions extends Omit<FlushOptions, 'client'> {
  /** A sent create of this kind was written into the mirror (the screens re-read that list). */
  readonly onCreated?: ((kind: OutboxKind) => void) | undefined;
}

export interface Mirror {
  /** The database file. */
  readonly file: string;
  readonly catalog: {
    /** POST /v0/catalogs/search answered offline (throws OfflineSearchError when invalid). */
    search(input: unknown): OfflineSearchResult;
    /** The same for a request its caller parsed at its own boundary: not parsed again. */
    searchParsed(req: CatalogSearchRequest): OfflineSearchResult;
    /**
     * The page of a parsed search as result-list rows (id, collection, acquisition, cloud,
     * off-nadir, gsd, platform, footprint bounds), read from columns: no record decoded.
     */
    rows(req: CatalogSearchRequest): OfflineListResult;
    /** Ids and outer rings of every record a parsed search matches (paging ignored). */
    footprints(req: CatalogSearchRequest): CatalogFootprints;
    /**
     * Keeps the last `footprints` answer in the mirror for the next launch's first read of the
     * same search (`search/kept-footprints.ts`); false when that search's answer is not kept
     * or the mirror changed since it was read.
     */
    keepFootprints(): boolean;
    /** Cloud cover of every match of a parsed search less its cloud filter, in bins of 10 %. */
    cloudHistogram(req: CatalogSearchRequest): CloudHistogram;
    /** One record as the service sent it; null when not mirrored. */
    get(id: string): CatalogRecordOut | null;
  };
  /** Mirrored records through the local filters (offline too); created ones newest first. */
  readonly records: {
    orders<T = WireRecord>(f?: OrderFilter): T[];
    orderItems<T = WireRecord>(f?: OrderItemFilter): T[];
    aois<T = WireRecord>(f?: AoiFilter): T[];
    assets<T = WireRecord>(f: AssetFilter): T[];
    indices<T = WireRecord>(f?: IndexFilter): T[];
    visualizations(): WireRecord[];
    deliveries(): WireRecord[];
    jobs(): WireRecord[];
    /**
     * Records whose status is not final yet (`refreshCreated` follows them): the created
     * deliveries, jobs and visualizations, every mirrored AOI, and the orders this client sent
     * that have not settled (payment in progress, or an item not ended).
     */
    unfinished(): ReturnType<CreatedRecords['unfinished']> & {
      aois: WireRecord[];
      orders: WireRecord[];
    };
    /** A mirrored AOI's or index's name; null when not mirrored or nameless. */
    nameOf(what: 'aoi' | 'index', id: string): string | null;
  };
  /** Suggestions for create forms, from the mirror and the outbox. */
  lookups(): Lookups;
  /** Where each resource's pass stands (resources never synced are absent). */
  status(): ResourceStatus[];
  /** Records stored per resource. */
  counts(): Record<SyncResource, number>;
  /** The drift samples of each resource's current pass. */
  driftSamples(): DriftSample[];
  /** Whether a sync is running on this mirror. */
  readonly syncing: boolean;
  /** The service and organisation the mirror's data came from (null where not known yet). */
  origin(): ServiceOrigin;
  /**
   * Field packages (README.md, "Field packages"): plan, write and look inside one; `import`
   * merges one into this mirror, all or nothing (SyncBusyError while a sync runs).
   */
  readonly packages: FieldPackages;
  /**
   * Queued work handed over between laptops (README.md, "Handing over queued work"): `write`
   * hands queued entries over into a file (`handed_over` here), `read` takes another laptop's
   * in (and receipts of ours it sent), `inspect` checks a file without taking it in.
   */
  readonly handover: HandoverFiles;
  /**
   * Empties what was pulled (the outbox and created records stay) and compacts the file.
   * Throws SyncBusyError while a sync runs.
   */
  clear(): void;
  /** The queue of creates; `flush` is the mirror's, with the client of the moment. */
  readonly outbox: Omit<Outbox, 'flush'>;
  /**
   * Quicklooks of mirrored catalog records (src/pull/imagery.ts): `get` returns checked bytes
   * (null when absent or bad: a bad file is deleted and fetched again by the next sync);
   * `touch` marks a record's pictures viewed (the budget evicts the least recently viewed).
   */
  readonly imagery: {
    get(recordId: string, variant: ImageryVariant): Buffer | null;
    touch(recordId: string): void;
    /** Index maps stored for an AOI (visualization, date, legend JSON), newest first. */
    indexMaps(aoiId: string): StoredIndexMap[];
    counts(): ImageryCounts;
    sync(options: ImagerySyncOptions): Promise<ImageryReport>;
  };
  /**
   * Sites taken offline at full resolution (src/offline/): `take` asks the service for the
   * scene's download once and stores the window of the area (or the whole file when it is not a
   * COG) in the imagery folder under the same budget; `list` shows scene, area, level, CRS,
   * bounds, bands, bytes and state; `file` gives a stored file's path after checking it.
   */
  readonly offline: OfflineRasters;
  /**
   * Archive scenes of the saved archive searches (given to `sync` as `archive`), for offline
   * browsing: a search's scenes in the service's order with whether their quicklooks are
   * stored (read them with `imagery.get(scene.id, ...)`), each search's last pass, counts.
   */
  readonly archive: {
    scenes(searchId: string): ArchiveScene[];
    searches(): ArchiveSearchStatus[];
    counts(): ArchiveCounts;
  };
  /** Brings the mirror level with the service `client` speaks to (see the engine). */
  sync(client: EoClient, options?: MirrorSyncOptions): Promise<MirrorSyncReport>;
  /**
   * Packs the catalog records a sync stored as their text (`packing.ts`): run it when the app
   * is idle, after a sync. It stops when `signal` aborts or a sync starts; `left` says how many
   * wait. Records read the same before and after.
   */
  readonly packing: {
    left(): number;
    pack(options?: PackRecordsOptions): Promise<PackingProgress>;
  };
  /**
   * Sends what the outbox holds through `client`, one flush at a time: a second call with the
   * same client shares the running flush; with another client it runs after it.
   */
  flush(client: EoClient, options?: MirrorFlushOptions): Promise<FlushProgress>;
  /**
   * Re-reads the unfinished deliveries, jobs and visualizations this client created, AOIs, and
   * the orders it sent.
   */
  refreshCreated(
    client: EoClient,
    options?: { signal?: AbortSignal | undefined },
  ): Promise<RefreshCreatedReport>;
  close(): void;
}

/** Opens (creating and migrating as needed) the mirror database at `file`. */
export function openMirror(file: string, options: MirrorOptions = {}): Mirror {
  const local = openMirrorDatabase(file, { onUpgrade: options.onUpgrade });
  const { sqlite } = local;
  const search = makeOfflineCatalogSearch(sqlite);
  const footprints = makeCatalogFootprints(sqlite);
  const cloudHistogram = makeCloudHistogram(sqlite);
  /** The catalog records changed: answers read from all of them are read again. */
  const catalogChanged = () => {
    footprints.invalidate();
    cloudHistogram.invalidate();
  };
  const catalogRecord = makeCatalogRecordReader(sqlite);
  const created = makeCreatedRecords(sqlite);
  const tables = makeMirrorTables(sqlite);
  const states = makeSyncStateStore(sqlite);
  const drift = makeDriftStore(sqlite);
  const writeCreated = makeOutboxMirror(sqlite);
  const imagery = makeImageryStore(sqlite, file);
  const archive = makeArchiveReads(sqlite);
  const offline = makeOfflineRasters(sqlite, file);
  const origin = makeMirrorOrigin(sqlite);
  const packages = makeFieldPackages({
    sqlite,
    file,
    imagery,
    origin,
    pixels: options.pixels ?? makePackageRasters(sqlite, file),
  });
  /** One imagery run at a time: two would write the same files. */
  let imageryRunning = false;
  const runImagery = async (opts: ImagerySyncOptions) => {
    if (imageryRunning) throw new SyncBusyError();
    imageryRunning = true;
    try {
      return await syncImagery(sqlite, imagery, opts);
    } finally {
      imageryRunning = false;
    }
  };
  /** The archive pass is running: the part of a sync after the records (busy too). */
  let runningArchive = false;
  const busy = () => runningArchive || isSyncing(sqlite);
  const packing = makeRecordPacking(sqlite, busy);
  /** Who hears of the creates the running flush writes. */
  let onCreated: MirrorFlushOptions['onCreated'];
  let flushing: { client: EoClient; done: Promise<FlushProgress> } | undefined;
  const outbox = createOutbox({
    db: sqlite,
    mirror: {
      async recordCreated(kind, response) {
        await writeCreated.recordCreated(kind, response);
        onCreated?.(kind);
      },
    },
    idempotency: options.idempotency,
    onMirrorError: options.onMirrorError,
    waitForOrderItems: options.waitForOrderItems,
  });
  const lookups = makeLookups(sqlite, () => outbox.list());
  const handover = makeHandoverFiles({
    outbox,
    origin,
    transaction: (fn) => sqlite.transaction(fn)(),
  });
  // Flushing goes through `flush` below, with the client of the moment.
  const { flush: _flush, ...queue } = outbox;

  return {
    file,
    catalog: {
      search,
      searchParsed: search.parsed,
      rows: search.rows,
      footprints: (req) => footprints.footprints(req),
      keepFootprints: () => footprints.keep(),
      cloudHistogram: (req) => cloudHistogram.histogram(req),
      get: catalogRecord,
    },
    records: {
      orders: (f) => filterOrders(sqlite, f),
      orderItems: (f) => filterOrderItems(sqlite, f),
      aois: (f) => filterAois(sqlite, f),
      assets: (f) => filterAssets(sqlite, f),
      indices: (f) => filterIndices(sqlite, f),
      visualizations: () => created.visualizations(),
      deliveries: () => created.deliveries(),
      jobs: () => created.jobs(),
      unfinished: () => ({
        ...created.unfinished(),
        aois: unfinishedAois(sqlite),
        orders: unfinishedOrders(sqlite),
      }),
      nameOf: (what, id) => tables.nameOf(what, id),
    },
    lookups,
    status: () => states.all(),
    counts: () => tables.counts(),
    driftSamples: () => drift.samples(),
    get syncing() {
      return busy();
    },
    origin: () => origin.read(),
    handover,
    packages: {
      ...packages,
      async import(packageFile, opts) {
        if (busy() || imageryRunning) throw new SyncBusyError();
        try {
          return await packages.import(packageFile, opts);
        } finally {
          catalogChanged();
        }
      },
    },
    clear() {
      if (busy()) throw new SyncBusyError();
      if (imageryRunning || offline.running) throw new SyncBusyError();
      imagery.clear(); // before tables.clear(): its VACUUM compacts the freed pages too
      tables.clear();
      catalogChanged();
    },
    outbox: queue,
    imagery: {
      get: (recordId, variant) => imagery.get(recordId, variant),
      touch: (recordId) => imagery.touch(recordId),
      indexMaps: (aoiId) => imagery.indexMaps(aoiId),
      counts: () => imagery.counts(),
      sync: runImagery,
    },
    offline,
    archive: {
      scenes: (searchId) => archive.scenes(searchId),
      searches: () => archive.searches(),
      counts: () => archive.counts(),
    },
    packing,
    async sync(client, opts = {}) {
      if (busy()) throw new SyncBusyError();
      // Checked before anything is read: a bad saved search is the caller's error.
      if (opts.archive) parseArchiveSearches(opts.archive);
      const engine = createSyncEngine({ ...opts, db: local, client });
      try {
        let report: MirrorSyncReport = await engine.sync({
          ...opts,
          reference: opts.reference !== false,
          onProgress: (p) => {
            if (p.resource === 'catalogs') catalogChanged();
            opts.onProgress?.(p);
          },
        });
        // The records are this service's now (a failed sync says nothing of where they are from).
        origin.synced(opts.service ?? client.baseUrl);
        if (opts.archive) {
          runningArchive = true;
          try {
            const scenes = await syncArchive(sqlite, client, opts.archive, {
              signal: opts.signal,
              onProgress: opts.onArchiveProgress,
              nowUs: opts.nowUs,
            });
            // Pictures of dropped scenes go now, not at the next imagery run.
            if (scenes.dropped > 0 && !imageryRunning) imagery.removeOrphans();
            report = { ...report, archive: scenes };
          } finally {
            runningArchive = false;
          }
        }
        if (!opts.imagery) return report;
        const pictures = await runImagery({
          client, // index maps of mirrored visualizations go through the sync's own client
          ...opts.imagery,
          signal: opts.signal,
        });
        return { ...report, imagery: pictures };
      } finally {
        catalogChanged();
      }
    },
    flush(client, { onCreated: listener, ...opts } = {}) {
      // The same connection shares the running flush (and its listener); another connection's
      // flush starts once it has stopped, through its own client.
      if (flushing?.client === client) return flushing.done;
      const previous = flushing?.done.catch(() => undefined);
      const run = () => {
        onCreated = listener;
        return outbox.flush({ ...opts, client }).finally(() => {
          onCreated = undefined;
        });
      };
      const done = (previous ? previous.then(run) : run()).finally(() => {
        if (flushing?.done === done) flushing = undefined;
      });
      flushing = { client, done };
      return done;
    },
    refreshCreated: (client, opts = {}) => refreshCreated({ sqlite, client, signal: opts.signal }),
    close: () => local.close(),
  };
}
