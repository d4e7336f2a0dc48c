/**
 * The connection to the service: one URL + key at a time (replaced as a whole when either
 * changes), its client, the connectivity watcher (which also auto-flushes the outbox while
 * online) and the connectivity state the screens show. A check of a replaced connection never
 * overwrites what the current one found. While the user works offline (the setting) there is no
 * connection at all: no client, no watcher, nothing that could send a request.
 */
import {
  createEoClient,
  keyTransportProblem,
  type EoClient,
  type ResponseEvent,
} from '@eo/api-client';
import {
  checkConnectivity,
  createDriftInbox,
  watchConnectivity,
  type ConnectivityCheck,
  type ConnectivityWatcher,
  type DriftInbox,
  type FlushTarget,
} from '@eo/sync';
import type { Connectivity } from '../shared/contract';
import type { BackendEvents } from './events';
import type { makeKeyBinding } from './key-binding';
import type { StoredSettings } from './local-store';
import { makeLinkMeter, type LinkMeter } from './link-meter';
import { fromCheck, isNews, unconfigured, workingOffline } from './connectivity-state';
import { noService } from './no-service';

/** One service URL + key: replaced as a whole when either changes. */
interface Connection {
  readonly url: string;
  readonly client: EoClient;
  /** Schema drift of this connection's answers, counted by the sync engine. */
  readonly drift: DriftInbox;
  /** The link as this connection's requests (and takes) measured it. */
  readonly link: LinkMeter;
  watcher: ConnectivityWatcher;
  /** Ends with the connection: its checks, "Submit all" (entries stay queued), refreshes. */
  readonly controller: AbortController;
  /** A check asked for by what the connection's requests met is running (one at a time). */
  rechecking: boolean;
  /** Whether this connection was online yet (the first time may start the first sync). */
  wasOnline: boolean;
}

export interface ConnectionOptions {
  readonly events: BackendEvents;
  readonly keys: ReturnType<typeof makeKeyBinding>;
  /** The settings now (the service URL, its dialect, "Work offline"). */
  readonly settings: () => StoredSettings;
  /** The reference service started because none is configured (used while serviceUrl is null). */
  readonly embeddedUrl: string | null;
  readonly intervalMs: number;
  /** The watcher's interval while the service is not online (its default if undefined). */
  readonly offlineIntervalMs: number | undefined;
  readonly timeoutMs: number;
  /**
   * A connection's first check waits for this (the renderer's first screen); settled by then,
   * a connection made later (new settings) checks at once.
   */
  readonly firstCheckAfter: Promise<void>;
  /** Flushed by the watcher while online: the same batches (and events) as "Submit all". */
  readonly outbox: FlushTarget;
  /** The first check of a connection that found the service online. */
  readonly onFirstOnline: () => void;
  /** Every check of the current connection that found the service online. */
  readonly onOnline: () => void;
}

export type ServiceConnection = ReturnType<typeof createConnection>;

export function createConnection(options: ConnectionOptions) {
  const { events, keys, settings, embeddedUrl } = options;
  let conn: Connection | null = null;
  /** Connectivity checks in flight (idle() waits for them). */
  const checking = new Set<Promise<unknown>>();

  /**
   * Ends a replaced connection: its watcher stops and its requests are aborted. The check it had
   * in flight settles later (its abort is news to it in a later turn); idle() waits for that too,
   * so "idle" after a switch means nothing of the old connection is still going.
   */
  function retire(c: Connection): void {
    c.watcher.stop();
    c.controller.abort();
    const settled = c.watcher.idle();
    checking.add(settled);
    void settled.finally(() => checking.delete(settled));
  }
  let connectivity: Connectivity = unconfigured();
  let closed = false;

  const serviceUrl = () => settings().serviceUrl ?? embeddedUrl;

  /** The state without a connection: working offline (the switch wins), or not set up. */
  const disconnected = (): Connectivity =>
    settings().workOffline ? workingOffline() : unconfigured();

  /**
   * The new state; `since` carried over while state and message read the same. A check's result
   * is announced even then, so the screens' "checked" time is the last check, not the last change.
   */
  function setConnectivity(next: Connectivity, announce = false): void {
    const changed = next.state !== connectivity.state || next.message !== connectivity.message;
    connectivity = changed ? next : { ...next, since: connectivity.since };
    if (changed || announce) events.emit('connectivity.changed', connectivity);
  }

  /**
   * A check's result, applied only while the connection it checked is the current one: a slow
   * check of a replaced URL or key must not overwrite what the new connection found. Every
   * result is announced (the first of a connection too, though the state it replaces may read
   * the same).
   */
  function applyCheck(checked: Connection, c: ConnectivityCheck): boolean {
    if (conn !== checked || closed) return false;
    setConnectivity(fromCheck(c), true);
    if (c.status === 'online' && !checked.wasOnline) {
      checked.wasOnline = true;
      options.onFirstOnline();
    }
    return true;
  }

  /** (Re)connects after the URL, key or "Work offline" changed: new client and watcher. */
  function connect(): void {
    if (conn) retire(conn);
    conn = null;
    const url = serviceUrl();
    const configured = settings().serviceUrl;
    if (closed || settings().workOffline || url === null || keys.keyFor(configured) === null) {
      setConnectivity(disconnected());
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
    const drift = createDriftInbox();
    const link = makeLinkMeter();
    const client = createEoClient({
      baseUrl: url,
      apiKey: () => keys.keyFor(configured) ?? '',
      onSchemaDrift: drift.onSchemaDrift,
      // What the app's own requests meet (a sync, a quote, a batch) is news about the service.
      // Their timings are the link's measure (a sync's pages, a quote, a take's calls).
      onResponse: (e) => {
        link.answered(e.timing);
        noticed(next, e);
      },
      // The embedded service is ours: it speaks our spec whatever the configured one speaks.
      dialect: configured === null ? 'spec' : settings().dialect,
    });
    const next: Connection = {
      url,
      client,
      drift,
      link,
      controller: new AbortController(),
      rechecking: false,
      wasOnline: false,
      watcher: null as unknown as ConnectivityWatcher,
    };
    conn = next;
    next.watcher = watchConnectivity({
      client,
      intervalMs: options.intervalMs,
      offlineIntervalMs: options.offlineIntervalMs,
      timeoutMs: options.timeoutMs,
      firstCheckAfter: options.firstCheckAfter,
      // The same batches (and events) as "Submit all", with the retry backoff honoured.
      outbox: options.outbox,
      onStatus: (c) => {
        // Follow unfinished visualizations, deliveries and jobs while the service is there.
        if (applyCheck(next, c) && c.status === 'online') options.onOnline();
      },
      onError: (e) => console.error('outbox flush failed:', e instanceof Error ? e.message : e),
    });
  }

  /**
   * A request of `c` ended: news about the service (`isNews`) has it checked at once, not at the
   * watcher's next tick (up to its interval away); the check applies only to the connection
   * that is still current.
   */
  function noticed(c: Connection, e: ResponseEvent): void {
    if (conn !== c || closed || c.rechecking) return;
    if (!isNews(e, connectivity.state)) return;
    c.rechecking = true;
    void checkNow()
      .catch(() => undefined)
      .finally(() => (c.rechecking = false));
  }

  async function checkNow(): Promise<Connectivity> {
    const checked = conn;
    if (!checked) {
      // Nothing is asked: working offline, or no service to ask.
      setConnectivity(disconnected());
      return connectivity;
    }
    const check = checkConnectivity(checked.client, {
      // Ends with the connection: a replaced one's answer is not wanted.
      signal: checked.controller.signal,
      timeoutMs: options.timeoutMs,
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

  /**
   * The operating system's network signal: the watcher checks soon (debounced there) instead
   * of at its timer, flushing the outbox if the service is back. No connection: nothing to ask.
   */
  function checkSoon(): boolean {
    return conn !== null && !closed && conn.watcher.checkSoon();
  }

  return {
    connect,
    checkNow,
    checkSoon,
    /** The current connection's URL, client and the signal that ends with it; null unconfigured. */
    current: () =>
      conn
        ? { url: conn.url, client: conn.client, signal: conn.controller.signal, link: conn.link }
        : null,
    /** The current connection's link as measured; null without one or before any answer. */
    link: () => conn?.link.view() ?? null,
    /**
     * The current connection's URL, client and drift inbox (a sync runs on them; quicklook
     * hrefs resolve against the URL); null unconfigured.
     */
    service: () => (conn ? { url: conn.url, client: conn.client, drift: conn.drift } : null),
    /** Why there is no connection now: `working_offline`, or `not_configured`. */
    noService: () => noService(settings().workOffline),
    /** A check someone else made with `client` ("Submit all"): applied if it is still current. */
    checkedBy(client: EoClient, c: ConnectivityCheck): void {
      if (conn?.client === client) applyCheck(conn, c);
    },
    /** Resolves when no check is in flight: "Check now"s and the watcher's (with its flush). */
    async idle(): Promise<void> {
      await Promise.allSettled([...checking, conn?.watcher.idle()]);
    },
    close(): void {
      closed = true;
      if (conn) retire(conn);
    },
  };
}
