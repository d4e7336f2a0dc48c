/**
 * The backend: every contract method over @eo/sync, in plain Node (no Electron), so the same
 * code runs in Electron's utilityProcess and in browser mode. This file composes the parts and
 * runs their lifecycle: the mirror database, the app's own store (settings, saved searches,
 * tiles), the one outbox (which exists with or without a service), the connection to the
 * service (`connection.ts`: client, connectivity, auto-flush), the sync runner
 * (`sync-runner.ts`: syncs and their timer), and binds each area's handlers
 * (`../areas/<area>/handlers.ts`) to those parts.
 */
import { makePrivateDir, openMirror } from '@eo/sync';
import path from 'node:path';
import type { CallResult } from '../shared/contract';
import { makeBasket } from './basket';
import { makeCatalogView } from './catalog-view';
import { createConnection } from './connection';
import { MIRROR_FILE } from './data-lock';
import { dispatch, type DispatchOptions, type Handlers } from './dispatch';
import { makeCreatedRefresh, type FollowBackoff } from './created-refresh';
import { createEvents, type BackendEvents } from './events';
import { waitForFirstScreen } from './first-screen';
import {
  appHandlers,
  archiveHandlers,
  basketHandlers,
  catalogHandlers,
  connectionHandlers,
  filesHandlers,
  handoverHandlers,
  outboxHandlers,
  rastersHandlers,
  packagesHandlers,
  recordsHandlers,
  settingsHandlers,
  syncHandlers,
  tilesHandlers,
} from '../areas/handlers';
import { fileBytes, openDesktopStore } from './local-store';
import { makeKeyBinding } from './key-binding';
import { makeMirrorSource } from './mirror-source';
import { makeMirrorStatus } from './mirror-status';
import type { Secrets } from './secrets';
import { createSyncRunner } from './sync-runner';
import { makeTiles } from './tiles';
import { createBackendOutbox, reportMirrorError, type BackendOutbox } from './outbox';
import { makeRecordReads } from './record-reads';
import { makeFileExport } from './file-export';
import { makeFieldPackageActions } from './field-packages';
import { makeHandoverActions } from './outbox-handover';
import { makePriceBook, makeQueuedOrderPricing } from './order-review';
import { makeOutboxViews } from './outbox-view';
import { makeQuicklooks, type QuicklookAnswer } from './quicklooks';
import type { OfflineRasterSource } from './offline-rasters';
import { makeOfflineRasterParts } from './offline-raster-parts';
import type { RasterBytesAnswer } from './raster-bytes';
import { quoteOrder } from './quote';

export interface BackendOptions {
  readonly dataDir: string;
  readonly secrets: Secrets;
  readonly mode: 'electron' | 'browser';
  readonly version?: string;
  /** The reference service started because none is configured (used while serviceUrl is null). */
  readonly embeddedServiceUrl?: string | null;
  /** Connectivity checks (and outbox auto-flush) every this many ms. Default 30 000. */
  readonly connectivityIntervalMs?: number;
  /** The same while the service is not online (its return is noticed soon). Default min(that, 5 000). */
  readonly connectivityOfflineIntervalMs?: number;
  /** Per-check timeout. Default 5 000. */
  readonly connectivityTimeoutMs?: number;
  /**
   * Sync as soon as a connection is first online while the mirror was never synced (the first
   * run shows the catalog without a click). Default true.
   */
  readonly syncOnFirstConnect?: boolean;
  /** Waits of the follow-up of unfinished records (created-refresh.ts); default 2 s to 60 s. */
  readonly followBackoff?: FollowBackoff | undefined;
  /**
   * Packing what a closed app left stored as text starts this long after launch (default
   * `PACK_AFTER_LAUNCH_MS` of sync-runner.ts); after a sync it starts at once.
   */
  readonly packAfterLaunchMs?: number;
  /**
   * Sites taken offline (@eo/sync's stored windows). Default: the mirror's (`mirror.offline`);
   * tests may give windows they wrote.
   */
  readonly offlineRasters?: OfflineRasterSource;
  /**
   * Set by launches (`launch.ts`): the first connectivity check waits for the renderer's first
   * screen (`app.firstScreenShown`), at most this long after launch. Unset: nothing waits.
   */
  readonly waitForFirstScreenMs?: number;
  /** Fetch used for basemap tiles (tests). */
  readonly fetch?: typeof fetch;
  readonly dispatch?: DispatchOptions;
}

export interface Backend {
  readonly handlers: Handlers;
  readonly events: BackendEvents;
  /**
   * Resolves once the renderer's first screen is up (or the wait for it ran out; at once when
   * `waitForFirstScreenMs` is unset): what would take a core from it starts then.
   */
  readonly firstScreenShown: Promise<void>;
  /** Validate and run one call from the renderer; never throws. */
  dispatch(method: unknown, rawInput: unknown): Promise<CallResult<unknown>>;
  /**
   * A mirrored quicklook's bytes (`{ recordId, variant }`, validated here), for the image paths
   * that bypass JSON (Electron's scheme, browser mode's GET route).
   */
  quicklook(raw: unknown): QuicklookAnswer;
  /**
   * A byte range of a stored offline raster (`{ rasterId, range }`: the id and the `Range`
   * header as sent, validated here), for the raster worker (Electron's scheme, browser mode's
   * GET route: shared/raster-paths.ts).
   */
  rasterBytes(raw: unknown): Promise<RasterBytesAnswer>;
  /**
   * The file of a raster export (`rasters.export`'s `exportId`, unchecked: unknown ids are
   * null), for main's save and browser mode's download (the bytes never cross the bridge).
   */
  rasterExportFile(exportId: unknown): { file: string; fileName: string; bytes: number } | null;
  /** Resolves when no sync, outbox batch or refresh is running (tests, shutdown). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export { MIRROR_FILE };

export function createBackend(options: BackendOptions): Backend {
  const { dataDir, secrets } = options;
  const events = createEvents();
  // The app's own folder: owner-only (0700), files in it 0600 (see local-store and @eo/sync).
  makePrivateDir(dataDir, { own: true });
  // The mirror (@eo/sync) owns its database; the outbox in it asks for the setting at each flush.
  const local = openMirror(path.join(dataDir, MIRROR_FILE), {
    idempotency: () => settings.idempotency,
    onMirrorError: reportMirrorError,
    // A delivery of a queued order's items waits until sync shows them completed (issue 17).
    waitForOrderItems: true,
  });
  const store = openDesktopStore(dataDir);
  const prices = makePriceBook(store);
  const firstScreen = waitForFirstScreen(options.waitForFirstScreenMs ?? null);
  const catalog = makeCatalogView(local, firstScreen.shown);
  const mirror = makeMirrorStatus(local, dataDir);
  // Working offline stops the tile server's traffic too (a metered link): cached tiles only.
  const getTile = makeTiles(store, {
    ...(options.fetch ? { fetch: options.fetch } : {}),
    cachedOnly: () => settings.workOffline,
  });
  const embeddedUrl = options.embeddedServiceUrl ?? null;

  let settings = store.settings();
  const currentSettings = () => settings;
  let closed = false;
  const connectivityTimeoutMs = options.connectivityTimeoutMs ?? 5_000;

  /** Why a call that needs the service finds no connection ("Work offline", or not set up). */
  const noService = () => connection.noService();
  // One outbox for the backend's lifetime: queueing needs no service, flushing uses the
  // connection's client at the time.
  const work = createBackendOutbox({
    mirror: local,
    events,
    client: () => connection.current()?.client ?? null,
    noService,
    connectivityTimeoutMs,
    onConnectivity: (c, client) => connection.checkedBy(client, c),
    autoSendOrders: () => settings.autoSendOrders,
    onQueued: (entry) => {
      prices.queued(entry);
      source.queued(entry.id);
    },
    queuedElsewhere: { ids: (w) => source.heldIds(w), of: (id) => source.queuedElsewhere(id) },
  });
  const orderViews = makeOutboxViews(local);
  const pricing = makeQueuedOrderPricing({
    outbox: local.outbox,
    views: orderViews,
    prices,
    quote: (input) => quoteOrder(connection.current(), input, noService),
  });
  const records = makeRecordReads(local);
  const offline = makeOfflineRasterParts({
    mirror: local,
    source: options.offlineRasters,
    settings: currentSettings,
    connection: () => connection.current(),
    noService,
  });
  const basket = makeBasket({ store, mirror: local, events });
  const created = makeCreatedRefresh({
    mirror: local,
    events,
    connection: () => connection.current(),
    noService,
    backoff: options.followBackoff,
    onChanged: (kinds) => sendFreedDeliveries(kinds, work, connection.current()),
  });
  const keys = makeKeyBinding({ secrets, store, embeddedUrl });
  /** The configured service, named as its key is bound (origin, or `embedded`). */
  const currentService = () => keys.bindingFor(settings.serviceUrl);
  const source = makeMirrorSource({
    store,
    current: currentService,
    hasData: () => mirror.status(false, []).resources.some((r) => r.count > 0),
  });
  const runner = createSyncRunner({
    local,
    store,
    events,
    mirror,
    source,
    settings: currentSettings,
    service: () => connection.service(),
    currentService,
    noService,
    syncOnFirstConnect: options.syncOnFirstConnect,
    packAfterLaunchMs: options.packAfterLaunchMs,
  });
  const connection = createConnection({
    events,
    keys,
    settings: currentSettings,
    embeddedUrl,
    intervalMs: options.connectivityIntervalMs ?? 30_000,
    offlineIntervalMs: options.connectivityOfflineIntervalMs,
    timeoutMs: connectivityTimeoutMs,
    outbox: work.autoFlush,
    firstCheckAfter: firstScreen.shown,
    onFirstOnline: () => runner.syncIfNeverSynced(),
    onOnline: () => created.poll(),
  });

  const handlers: Handlers = {
    ...appHandlers({ ...options, embeddedUrl, firstScreen }),
    ...settingsHandlers({
      settings: currentSettings,
      save: (next) => {
        store.saveSettings(next);
        settings = next;
      },
      keys,
      secrets,
      storageBytes: () => fileBytes(local.file) + store.bytes() + local.imagery.counts().bytes,
      reconnect: (stopSync) => {
        if (stopSync) runner.abort();
        connection.connect();
        // Tell the truth about the new settings soon, without holding the save.
        void connection.checkNow().catch(() => undefined);
      },
      reschedule: () => runner.schedule(),
    }),
    ...connectionHandlers(connection),
    ...syncHandlers({ runner, mirror, source }),
    ...catalogHandlers(catalog, store),
    ...tilesHandlers(getTile, () => settings.tileUrl),
    ...recordsHandlers({
      records,
      lookups: () => local.lookups(),
      created,
      connection: () => connection.current(),
      noService,
      onQuoted: (input, order) => prices.quoted(input, order),
    }),
    ...outboxHandlers(
      work,
      () => connection.current()?.signal,
      pricing.review,
      pricing.confirm,
      (c) => basket.consume(c),
    ),
    ...handoverHandlers(
      makeHandoverActions({
        mirror: local,
        views: orderViews,
        prices,
        events,
        pending: work.pending,
        sending: work.sending,
        service: () => settings.serviceUrl ?? embeddedUrl,
      }),
    ),
    ...basketHandlers(basket),
    ...filesHandlers(makeFileExport(local)),
    ...archiveHandlers(local, store),
    ...rastersHandlers(offline.rasters, offline.takes, offline.exports, () => connection.link()),
    ...packagesHandlers(
      makeFieldPackageActions({
        mirror: local,
        events,
        service: () => settings.serviceUrl ?? embeddedUrl,
        onImported: () => runner.packStoredRecords(),
      }),
    ),
  };

  connection.connect();
  runner.schedule();

  return {
    handlers,
    events,
    firstScreenShown: firstScreen.shown,
    dispatch: (method, raw) => dispatch(handlers, method, raw, { dataDir, ...options.dispatch }),
    quicklook: makeQuicklooks(local),
    rasterBytes: (raw) => offline.bytes.read(raw),
    rasterExportFile: (exportId) => offline.exports.file(exportId),
    async idle() {
      for (const part of [connection, runner, work, created]) await part.idle();
    },
    async close() {
      if (closed) return;
      closed = true;
      firstScreen.close();
      created.close();
      connection.close();
      await runner.close();
      await work.idle();
      await created.idle();
      offline.takes.close();
      await offline.bytes.close();
      offline.exports.close();
      local.close();
      store.close();
    },
  };
}

/**
 * Items that completed free the deliveries waiting for them: sent now, not at the next
 * connectivity tick. Not awaited: the refresh that noticed them goes on; the batch reports
 * itself (`outbox.finished`), and a failed one leaves the entries queued.
 */
function sendFreedDeliveries(
  kinds: readonly string[],
  work: BackendOutbox,
  conn: { signal: AbortSignal } | null,
): void {
  if (!kinds.includes('orders') || !conn || work.autoFlush.counts().queued === 0) return;
  void work.autoFlush.flush({ signal: conn.signal }).catch(() => undefined);
}
