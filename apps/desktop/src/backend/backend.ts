/**
 * The backend: every contract method over @eo/sync, in plain Node (no Electron), so the same
 * code runs in Electron's utilityProcess and in browser mode. Holds the mirror (`openMirror`:
 * its database, sync and outbox are @eo/sync's), the app's own store (settings, saved searches,
 * tiles), the connectivity watcher (which also flushes the outbox when online) and the optional
 * sync timer. The part-2 methods live in small files beside this one: work-records.ts (mirror
 * reads), work-outbox.ts and outbox-view.ts, quote.ts.
 */
import { createEoClient, keyTransportProblem, type EoClient } from '@eo/api-client';
import type { CatalogSearchRequestInput } from '@eo/domain';
import {
  RESOURCES,
  checkConnectivity,
  makeDriftInbox,
  makePrivateDir,
  openMirror,
  watchConnectivity,
  type ConnectivityCheck,
  type ConnectivityWatcher,
  type DriftInbox,
} from '@eo/sync';
import path from 'node:path';
import {
  ContractError,
  type CallResult,
  type Connectivity,
  type Settings,
  type SyncResource,
  type SyncStatus,
} from '../shared/contract';
import { makeCatalogView } from './catalog-view';
import { dispatch, type DispatchOptions, type Handlers } from './dispatch';
import { makeCreatedRefresh } from './created-refresh';
import { createEvents, type BackendEvents } from './events';
import { fileBytes, openLocalStore, type StoredSettings } from './local-store';
import { makeKeyBinding } from './key-binding';
import { makeMirrorSource } from './mirror-source';
import { makeMirrorStatus } from './mirror-status';
import { quoteOrder } from './quote';
import type { Secrets } from './secrets';
import { makeTiles } from './tiles';
import { createWorkOutbox, reportMirrorError } from './work-outbox';
import { makeWorkRecords } from './work-records';

export interface BackendOptions {
  readonly dataDir: string;
  readonly secrets: Secrets;
  readonly mode: 'electron' | 'browser';
  readonly version?: string;
  /** The reference service started because none is configured (used while serviceUrl is null). */
  readonly embeddedServiceUrl?: string | null;
  /** Connectivity checks (and outbox auto-flush) every this many ms. Default 30 000. */
  readonly connectivityIntervalMs?: number;
  /** Per-check timeout. Default 5 000. */
  readonly connectivityTimeoutMs?: number;
  /**
   * Sync as soon as a connection is first online while the mirror was never synced (the first
   * run shows the catalog without a click). Default true.
   */
  readonly syncOnFirstConnect?: boolean;
  /** Fetch used for basemap tiles (tests). */
  readonly fetch?: typeof fetch;
  readonly dispatch?: DispatchOptions;
}

export interface Backend {
  readonly handlers: Handlers;
  readonly events: BackendEvents;
  /** Validate and run one call from the renderer; never throws. */
  dispatch(method: unknown, rawInput: unknown): Promise<CallResult<unknown>>;
  /** Resolves when no sync, outbox batch or refresh is running (tests, shutdown). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** Files in the data dir: `mirror.sqlite` (@eo/sync), `desktop.sqlite` (settings, searches, tiles). */
export const MIRROR_FILE = 'mirror.sqlite';

/** One service URL + key: replaced as a whole when either changes. */
interface Connection {
  readonly url: string;
  readonly client: EoClient;
  /** Schema drift of this connection's answers, counted by the sync engine. */
  readonly drift: DriftInbox;
  watcher: ConnectivityWatcher;
  /** Ends with the connection: its checks, "Submit all" (entries stay queued), refreshes. */
  readonly controller: AbortController;
  /** Whether a check result of this connection was announced yet. */
  announced: boolean;
  /** Whether this connection was online yet (the first time may start the first sync). */
  wasOnline: boolean;
}

export function createBackend(options: BackendOptions): Backend {
  const { dataDir, secrets } = options;
  const events = createEvents();
  // The app's own folder: owner-only (0700), files in it 0600 (see local-store and @eo/sync).
  makePrivateDir(dataDir, { own: true });
  // The mirror (@eo/sync) owns its database; the outbox in it asks for the setting at each flush.
  const local = openMirror(path.join(dataDir, MIRROR_FILE), {
    idempotency: () => settings.idempotency,
    onMirrorError: reportMirrorError,
  });
  const store = openLocalStore(dataDir);
  const catalog = makeCatalogView(local);
  const mirror = makeMirrorStatus(local);
  const getTile = makeTiles(store, options.fetch ? { fetch: options.fetch } : {});
  const embeddedUrl = options.embeddedServiceUrl ?? null;

  let settings = store.settings();
  let conn: Connection | null = null;
  /** Connectivity checks in flight (idle() waits for them). */
  const checking = new Set<Promise<unknown>>();
  let connectivity: Connectivity = unconfigured();
  let running: { controller: AbortController; done: Promise<void> } | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;
  let closed = false;

  const serviceUrl = () => settings.serviceUrl ?? embeddedUrl;
  /** The current connection's client and the signal that ends with it; null unconfigured. */
  const connection = () => (conn ? { client: conn.client, signal: conn.controller.signal } : null);
  const connectivityTimeoutMs = options.connectivityTimeoutMs ?? 5_000;

  // One outbox for the backend's lifetime: queueing needs no service, flushing uses the
  // connection's client at the time.
  const work = createWorkOutbox({
    mirror: local,
    events,
    client: () => conn?.client ?? null,
    connectivityTimeoutMs,
    onConnectivity: (c, client) => {
      if (conn?.client === client) applyCheck(conn, c);
    },
    autoSendOrders: () => settings.autoSendOrders,
  });
  const records = makeWorkRecords(local);
  const created = makeCreatedRefresh({
    mirror: local,
    events,
    connection: () => connection(),
  });
  const keys = makeKeyBinding({ secrets, store, embeddedUrl });
  /** The configured service, named as its key is bound (origin, or `embedded`). */
  const currentService = () => keys.bindingFor(settings.serviceUrl);
  const source = makeMirrorSource({
    store,
    current: currentService,
    hasData: () => mirror.status(false, []).resources.some((r) => r.count > 0),
  });

  function unconfigured(): Connectivity {
    return {
      state: 'unconfigured',
      checkedAt: new Date().toISOString(),
      message: 'No service URL or API key yet: enter them in Settings.',
    };
  }

  function setConnectivity(next: Connectivity, announce = false): void {
    const changed = next.state !== connectivity.state || next.message !== connectivity.message;
    connectivity = next;
    if (changed || announce) events.emit('connectivity.changed', next);
  }

  /**
   * A check's result, applied only while the connection it checked is the current one: a slow
   * check of a replaced URL or key must not overwrite what the new connection found. The first
   * result of a connection is always announced (the state it replaces may read the same).
   */
  function applyCheck(checked: Connection, c: ConnectivityCheck): boolean {
    if (conn !== checked || closed) return false;
    const first = !checked.announced;
    checked.announced = true;
    setConnectivity(fromCheck(c), first);
    if (c.status === 'online' && !checked.wasOnline) {
      checked.wasOnline = true;
      syncIfNeverSynced();
    }
    return true;
  }

  /** A mirror that never completed a sync fills itself on the first connection online. */
  function syncIfNeverSynced(): void {
    if (options.syncOnFirstConnect === false || running) return;
    if (stateStatuses().some((s) => s.lastCompleteAtUs !== null)) return;
    try {
      startSync(undefined);
    } catch (e) {
      console.error('first sync failed to start:', e instanceof Error ? e.message : e);
    }
  }

  function fromCheck(c: ConnectivityCheck): Connectivity {
    const checkedAt = new Date().toISOString();
    switch (c.status) {
      case 'online':
        return { state: 'online', checkedAt };
      case 'unauthorized':
        return {
          state: 'unauthorized',
          checkedAt,
          message: 'The service refused the API key: enter a valid key in Settings.',
        };
      case 'offline':
        return {
          state: 'offline',
          checkedAt,
          message: `The service cannot be reached (${c.message ?? 'network error'}); searches use the local mirror.`,
        };
      default:
        return {
          state: 'offline',
          checkedAt,
          message: `The service answered with an error (${c.message ?? 'unknown'}); searches use the local mirror.`,
        };
    }
  }

  /** (Re)connects after the URL or key changed: new client and watcher. */
  function connect(): void {
    conn?.watcher.stop();
    conn?.controller.abort();
    conn = null;
    const url = serviceUrl();
    const configured = settings.serviceUrl;
    if (closed || url === null || keys.keyFor(configured) === null) {
      setConnectivity(unconfigured());
      return;
    }
    const problem = keyTransportProblem(url);
    if (problem) {
      // A URL stored by an older version: the key is not sent there.
      setConnectivity({ ...unconfigured(), message: `The service URL ${url}: ${problem}.` });
      return;
    }
    // The key is read before every request, and only for the service it is bound to: a key
    // changed in Settings applies at once, and never travels to another origin.
    // Schema drift is counted by the sync engine (per resource, with samples).
    const drift = makeDriftInbox();
    const client = createEoClient({
      baseUrl: url,
      apiKey: () => keys.keyFor(configured) ?? '',
      onSchemaDrift: drift.onSchemaDrift,
      // The embedded service is ours: it speaks our spec whatever the configured one speaks.
      dialect: settings.serviceUrl === null ? 'spec' : settings.dialect,
    });
    const next: Connection = {
      url,
      client,
      drift,
      controller: new AbortController(),
      announced: false,
      wasOnline: false,
      watcher: null as unknown as ConnectivityWatcher,
    };
    conn = next;
    next.watcher = watchConnectivity({
      client,
      intervalMs: options.connectivityIntervalMs ?? 30_000,
      timeoutMs: connectivityTimeoutMs,
      // The same batches (and events) as "Submit all", with the retry backoff honoured.
      outbox: work.autoFlush,
      onStatus: (c) => {
        // Follow unfinished visualizations, deliveries and jobs while the service is there.
        if (applyCheck(next, c) && c.status === 'online') created.poll();
      },
      onError: (e) => console.error('outbox flush failed:', e instanceof Error ? e.message : e),
    });
  }

  function schedule(): void {
    clearInterval(timer);
    timer = undefined;
    if (settings.syncIntervalMinutes > 0) {
      timer = setInterval(() => {
        if (!running && conn) startSync(undefined);
      }, settings.syncIntervalMinutes * 60_000);
      timer.unref?.();
    }
  }

  function status(): SyncStatus {
    // Completions against another service are not this one's (the URL changed since).
    return source.view(mirror.status(running !== null, stateStatuses()));
  }

  const stateStatuses = () => local.status();

  /** What this sync covers: the request, or the mirror settings. */
  function resourcesFor(requested: readonly SyncResource[] | undefined): SyncResource[] {
    const m = settings.mirror;
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

  function startSync(requested: readonly SyncResource[] | undefined): SyncStatus {
    if (running)
      throw new ContractError('busy', 'A sync is already running; wait for it or cancel it.');
    if (!conn) {
      throw new ContractError(
        'not_configured',
        'Enter the service URL and API key in Settings first.',
      );
    }
    let resources = resourcesFor(requested);
    let catalogPlan: 'all' | CatalogSearchRequestInput[] = 'all';
    if (settings.mirror.catalog === 'saved-searches') {
      catalogPlan = store.savedSearches().map((s) => s.query as CatalogSearchRequestInput);
      // No saved search yet: nothing of the catalog to mirror.
      if (catalogPlan.length === 0) resources = resources.filter((r) => r !== 'catalogs');
    } else if (settings.mirror.catalog === 'none') {
      resources = resources.filter((r) => r !== 'catalogs');
    }
    const controller = new AbortController();
    // A connection exists, so a service is configured or embedded: its binding is not null.
    const tracking = source.started(currentService()!, stateStatuses());
    const done = local
      .sync(conn.client, {
        drift: conn.drift,
        catalog: catalogPlan,
        resources,
        signal: controller.signal,
        onProgress: (p) => {
          events.emit('sync.progress', { resource: p.resource, seen: p.seen, total: p.total });
        },
      })
      .then(
        () => undefined,
        // Recorded per resource in sync_state: the status carries it to the screen.
        () => undefined,
      )
      .finally(() => {
        running = null;
        tracking.finished(stateStatuses());
        if (!closed) events.emit('sync.finished', status());
      });
    running = { controller, done };
    return status();
  }

  function settingsView(): Settings {
    return {
      serviceUrl: settings.serviceUrl,
      dialect: settings.dialect,
      apiKeySet: keys.isSet(settings.serviceUrl),
      apiKeyStorage: secrets.storage(),
      mirror: settings.mirror,
      syncIntervalMinutes: settings.syncIntervalMinutes,
      tileUrl: settings.tileUrl,
      idempotency: settings.idempotency,
      autoSendOrders: settings.autoSendOrders,
      storageBytes: fileBytes(local.file) + store.bytes(),
    };
  }

  async function checkNow(): Promise<Connectivity> {
    const checked = conn;
    if (!checked) {
      setConnectivity(unconfigured());
      return connectivity;
    }
    const check = checkConnectivity(checked.client, {
      // Ends with the connection: a replaced one's answer is not wanted.
      signal: checked.controller.signal,
      timeoutMs: connectivityTimeoutMs,
    });
    checking.add(check);
    try {
      applyCheck(checked, await check);
    } catch (e) {
      if (!checked.controller.signal.aborted) throw e;
    } finally {
      checking.delete(check);
    }
    // The current state: this check's, or the newer connection's.
    return connectivity;
  }

  const handlers: Handlers = {
    'app.info': () => ({
      version: options.version ?? '0.0.0-dev',
      mode: options.mode,
      embeddedServiceUrl: embeddedUrl,
    }),
    'settings.get': () => settingsView(),
    'settings.update': async (u) => {
      const problem = u.serviceUrl ? keyTransportProblem(u.serviceUrl) : null;
      if (problem) {
        throw new ContractError('invalid_argument', `serviceUrl: ${problem}`, {
          issues: [{ path: 'serviceUrl', message: problem }],
        });
      }
      const before: StoredSettings = settings;
      const next: StoredSettings = {
        serviceUrl: u.serviceUrl !== undefined ? u.serviceUrl : before.serviceUrl,
        dialect: u.dialect ?? before.dialect,
        mirror: { ...before.mirror, ...u.mirror },
        syncIntervalMinutes: u.syncIntervalMinutes ?? before.syncIntervalMinutes,
        tileUrl: u.tileUrl !== undefined ? u.tileUrl : before.tileUrl,
        idempotency: u.idempotency ?? before.idempotency,
        autoSendOrders: u.autoSendOrders ?? before.autoSendOrders,
      };
      store.saveSettings(next);
      settings = next;
      // A key given is the new service's; without one, a key of another origin is forgotten.
      let keyChanged = true;
      if (u.apiKey !== undefined) keys.set(u.apiKey, next.serviceUrl);
      else keyChanged = keys.follow(next.serviceUrl);
      const dialectChanged = next.dialect !== before.dialect;
      if (next.serviceUrl !== before.serviceUrl || keyChanged || dialectChanged) {
        if (next.serviceUrl !== before.serviceUrl) running?.controller.abort();
        connect();
        // Tell the truth about the new settings soon, without holding the save.
        void checkNow().catch(() => undefined);
      }
      if (next.syncIntervalMinutes !== before.syncIntervalMinutes) schedule();
      return settingsView();
    },
    'mirror.clear': () => {
      if (running)
        throw new ContractError('busy', 'Cancel the running sync before clearing the mirror.');
      mirror.clear();
      source.cleared();
      return { cleared: true as const };
    },
    'connectivity.check': () => checkNow(),
    'sync.run': (input) => startSync(input?.resources),
    'sync.cancel': async () => {
      if (running) {
        const { controller, done } = running;
        controller.abort();
        await done;
      }
      return status();
    },
    'sync.status': () => status(),
    'catalog.search': (q) => catalog.search(q),
    'catalog.footprints': (q) => catalog.footprints(q),
    'catalog.get': ({ id }) => catalog.get(id),
    'savedSearches.list': () => store.savedSearches(),
    'savedSearches.save': (s) => store.saveSearch(s),
    'savedSearches.remove': ({ id }) => ({ removed: store.removeSearch(id) }),
    'tiles.get': (t) => getTile(settings.tileUrl, t),

    // Part 2: reads of the mirror (offline too).
    'orders.list': (q) => records.orders(q),
    'orderItems.list': (q) => records.orderItems(q),
    'aois.list': (q) => records.aois(q),
    'aois.assets': ({ aoiId }) => records.assets(aoiId),
    'indices.list': (q) => records.indices(q),
    'visualizations.list': () => records.visualizations(),
    'deliveries.list': () => records.deliveries(),
    'jobs.list': () => records.jobs(),
    'lookups.get': () => local.lookups(),
    // Online only.
    'orders.quote': (input) => quoteOrder(connection(), input),
    'created.refresh': () => created.refresh(),
    // The outbox.
    'outbox.list': (q) => work.list(q?.states),
    'outbox.enqueue': (create) => work.enqueue(create),
    'outbox.edit': ({ id, input }) => work.edit(id, input),
    'outbox.retry': ({ id }) => work.retry(id),
    'outbox.cancel': ({ id }) => work.cancel(id),
    'outbox.confirm': ({ id, remoteId }) => work.confirm(id, remoteId),
    'outbox.resend': ({ id }) => work.resend(id),
    'outbox.flush': () => work.flushNow(conn?.controller.signal),
  };

  connect();
  schedule();

  return {
    handlers,
    events,
    dispatch: (method, raw) => dispatch(handlers, method, raw, options.dispatch),
    async idle() {
      await Promise.allSettled([...checking]);
      await running?.done;
      await work.idle();
      await created.idle();
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      conn?.watcher.stop();
      conn?.controller.abort();
      running?.controller.abort();
      await running?.done;
      await work.idle();
      await created.idle();
      local.close();
      store.close();
    },
  };
}
