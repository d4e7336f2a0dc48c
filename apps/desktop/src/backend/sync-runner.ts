/**
 * Syncing the mirror from the service: one sync at a time (started by a person, by the timer
 * of the sync interval, or by the first connection online while the mirror was never synced),
 * its progress and end as events, and the mirror's status per resource. After a sync (and once
 * after launch, for what a closed app left) the catalog records it stored as text are packed
 * in the background (`Mirror.packing`), stopped when a sync starts or the app closes.
 */
import type { EoClient } from '@eo/api-client';
import type { CatalogSearchRequestInput } from '@eo/domain';
import { RESOURCES, type DriftInbox, type ImageryReport, type Mirror } from '@eo/sync';
import { ContractError, type SyncResource, type SyncStatus } from '../shared/contract';
import type { BackendEvents } from './events';
import type { DesktopStore, StoredSettings } from './local-store';
import type { makeMirrorSource } from './mirror-source';
import type { makeMirrorStatus } from './mirror-status';
import { notConfigured, type NoService } from './no-service';

export interface SyncRunnerOptions {
  readonly local: Mirror;
  readonly store: DesktopStore;
  readonly events: BackendEvents;
  readonly mirror: ReturnType<typeof makeMirrorStatus>;
  readonly source: ReturnType<typeof makeMirrorSource>;
  readonly settings: () => StoredSettings;
  /** The current connection's URL, client and drift inbox; null unconfigured. */
  readonly service: () => { url: string; client: EoClient; drift: DriftInbox } | null;
  /** The configured service, named as its key is bound (origin, or `embedded`). */
  readonly currentService: () => string | null;
  /** Why there is no service ("Work offline", or not set up); default not set up. */
  readonly noService?: NoService;
  /** Sync on the first connection online while the mirror was never synced. Default true. */
  readonly syncOnFirstConnect?: boolean | undefined;
  /** When to pack what a closed app left stored as text. Default `PACK_AFTER_LAUNCH_MS`. */
  readonly packAfterLaunchMs?: number | undefined;
}

/**
 * After launch, packing what a closed app left stored as text waits this long: after the first
 * screen and the embedded service's start (`launch.ts`), so it never competes with them.
 */
const PACK_AFTER_LAUNCH_MS = 5_000;

export type SyncRunner = ReturnType<typeof createSyncRunner>;

export function createSyncRunner(options: SyncRunnerOptions) {
  const { local, store, events, mirror, source, settings } = options;
  let running: { controller: AbortController; done: Promise<void> } | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  /** How the last imagery pass went (this launch; null before one ran). */
  let lastImagery: ImageryReport | null = null;
  let packing: { controller: AbortController; done: Promise<void> } | null = null;

  /** Packs what a sync stored as text, unless a sync runs, packing runs, or we are closing. */
  function packStoredRecords(): void {
    if (closed || running || packing || local.packing.left() === 0) return;
    const controller = new AbortController();
    const done = local.packing
      .pack({ signal: controller.signal })
      .then(
        () => undefined,
        // Left as text (they read the same): the next run packs them.
        (e: unknown) =>
          console.error('packing the catalog failed:', e instanceof Error ? e.message : e),
      )
      .finally(() => {
        packing = null;
      });
    packing = { controller, done };
  }
  const packAfterLaunch = setTimeout(
    packStoredRecords,
    options.packAfterLaunchMs ?? PACK_AFTER_LAUNCH_MS,
  );
  packAfterLaunch.unref?.();

  async function stopPacking(): Promise<void> {
    if (!packing) return;
    packing.controller.abort();
    await packing.done;
  }

  function status(): SyncStatus {
    // Completions against another service are not this one's (the URL changed since).
    const view = source.view(mirror.status(running !== null, stateStatuses()));
    const counts = local.imagery.counts();
    return {
      ...view,
      imagery: {
        thumbnails: counts.thumbnail,
        overviews: counts.overview,
        indexMaps: counts.indexMap,
        bytes: counts.bytes,
        lastRun: lastImagery && {
          fetched: lastImagery.fetched,
          failed: lastImagery.failed + lastImagery.expired + lastImagery.refused,
          overBudget: lastImagery.overBudget,
          lastError: lastImagery.lastError,
        },
      },
      archive: local.archive.counts(),
    };
  }

  /** The quicklooks to fetch after the records, as the settings say (none when `off`). */
  function imageryPlan(serviceUrl: string) {
    const { imagery, imageryBudgetMb } = settings();
    if (imagery === 'off') return undefined;
    return {
      serviceUrl,
      choice: imagery,
      budgetBytes: imageryBudgetMb * 2 ** 20,
      onProgress: (p: { seen: number; total: number; bytes: number }) =>
        events.emit('sync.imagery', { seen: p.seen, total: p.total, bytes: p.bytes }),
    };
  }

  const stateStatuses = () => local.status();

  /** What this sync covers: the request, or the mirror settings. */
  function resourcesFor(requested: readonly SyncResource[] | undefined): SyncResource[] {
    const m = settings().mirror;
    const enabled: Record<SyncResource, boolean> = {
      orders: m.orders,
      orderItems: m.orderItems,
      aois: m.aois,
      assets: m.aois,
      indices: m.indices,
      catalogs: m.catalog !== 'none',
    };
    const wanted = requested ? new Set(requested) : null;
    return RESOURCES.filter((r) => (wanted ? wanted.has(r) : enabled[r]));
  }

  function start(requested: readonly SyncResource[] | undefined): SyncStatus {
    if (running)
      throw new ContractError('busy', 'A sync is already running; wait for it or cancel it.');
    const service = options.service();
    if (!service) throw (options.noService ?? notConfigured)();
    let resources = resourcesFor(requested);
    let catalogPlan: 'all' | CatalogSearchRequestInput[] = 'all';
    const mirrored = settings().mirror.catalog;
    if (mirrored === 'saved-searches') {
      catalogPlan = store.savedSearches().map((s) => s.query as CatalogSearchRequestInput);
      // No saved search yet: nothing of the catalog to mirror.
      if (catalogPlan.length === 0) resources = resources.filter((r) => r !== 'catalogs');
    } else if (mirrored === 'none') {
      resources = resources.filter((r) => r !== 'catalogs');
    }
    // Stops at its next batch: the sync's writes come first.
    packing?.controller.abort();
    const controller = new AbortController();
    // A connection exists, so a service is configured or embedded: its binding is not null.
    const tracking = source.started(options.currentService()!, stateStatuses());
    const done = local
      .sync(service.client, {
        drift: service.drift,
        catalog: catalogPlan,
        // The user's saved archive searches: their scenes (and thumbnails) kept offline.
        archive: store
          .savedArchiveSearches()
          .map(({ id, name, search, maxScenes }) => ({ id, name, search, maxScenes })),
        resources,
        signal: controller.signal,
        onProgress: (p) => {
          events.emit('sync.progress', { resource: p.resource, seen: p.seen, total: p.total });
        },
        imagery: imageryPlan(service.url),
      })
      .then(
        (report) => {
          if (report.imagery) lastImagery = report.imagery;
        },
        // Recorded per resource in sync_state: the status carries it to the screen.
        () => undefined,
      )
      .finally(() => {
        running = null;
        tracking.finished(stateStatuses());
        if (!closed) events.emit('sync.finished', status());
        packStoredRecords();
      });
    running = { controller, done };
    return status();
  }

  return {
    start,
    status,
    /** Whether a sync is running now. */
    busy: () => running !== null,
    /** Stops the running sync (if any) and resolves when it has ended. */
    async cancel(): Promise<void> {
      if (running) {
        const { controller, done } = running;
        controller.abort();
        await done;
      }
    },
    /** Stops the running sync without waiting (the service it reads from was replaced). */
    abort: () => running?.controller.abort(),
    /** A mirror that never completed a sync fills itself on the first connection online. */
    syncIfNeverSynced(): void {
      if (options.syncOnFirstConnect === false || running) return;
      if (stateStatuses().some((s) => s.lastCompleteAtUs !== null)) return;
      try {
        start(undefined);
      } catch (e) {
        console.error('first sync failed to start:', e instanceof Error ? e.message : e);
      }
    },
    /** (Re)starts the timer of the sync interval setting (0: manual only). */
    schedule(): void {
      clearInterval(timer);
      timer = undefined;
      const minutes = settings().syncIntervalMinutes;
      if (minutes > 0) {
        timer = setInterval(() => {
          if (!running && options.service()) start(undefined);
        }, minutes * 60_000);
        timer.unref?.();
      }
    },
    /** Packs what a sync or an import stored as text, if any (a field package import). */
    packStoredRecords,
    /** Resolves when no sync and no packing is running. */
    async idle(): Promise<void> {
      await running?.done;
      await packing?.done;
    },
    /** Stops the timer, the running sync and packing; resolves when they have ended. */
    async close(): Promise<void> {
      closed = true;
      clearInterval(timer);
      clearTimeout(packAfterLaunch);
      running?.controller.abort();
      await running?.done;
      await stopPacking();
    },
  };
}
