/**
 * Following what this client created (visualizations, deliveries, jobs, the orders it sent) and
 * every AOI until it is final: `created.refresh` on demand (online only), and a follow-up of its own (issue 17,
 * item 4): after a batch of the outbox sent something, and on every connectivity tick that finds
 * the service online, it re-reads what is unfinished with a bounded backoff (`firstMs`, doubled
 * after each read that changed nothing, at most `maxMs`; back to `firstMs` after a change), and
 * stops when everything is final, the service is out of reach (the next online tick starts it
 * again) or the backend closes. One refresh at a time; a second caller shares the running one.
 * `records.changed` tells the screens what changed.
 */
import type { EoClient } from '@eo/api-client';
import type { Mirror } from '@eo/sync';
import { ContractError } from '../shared/contract';
import type { BackendEvents } from './events';
import type { NoService } from './no-service';
import { requireClient, serviceCallError } from './quote';

/** The follow-up's waits between reads: from `firstMs`, doubled while nothing changes, to `maxMs`. */
export interface FollowBackoff {
  readonly firstMs: number;
  readonly maxMs: number;
}

export const DEFAULT_FOLLOW_BACKOFF: FollowBackoff = { firstMs: 2_000, maxMs: 60_000 };

/** Timers, replaceable by a test that fires them itself. */
export interface FollowTimers {
  /** `fn` returns the read it started (a test awaits it). */
  set(fn: () => Promise<void>, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: FollowTimers = {
  set: (fn, ms) => {
    const t = setTimeout(() => void fn(), ms);
    // The follow-up never keeps the process alive on its own.
    t.unref?.();
    return t;
  },
  clear: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
};

export function makeCreatedRefresh(options: {
  readonly mirror: Mirror;
  readonly events: BackendEvents;
  /** The current connection's client and the signal that ends with it; null unconfigured. */
  readonly connection: () => { client: EoClient; signal: AbortSignal } | null;
  /** Why there is no connection ("Work offline", or not set up). */
  readonly noService?: NoService;
  readonly backoff?: FollowBackoff | undefined;
  readonly timers?: FollowTimers | undefined;
  /** A read changed these kinds (after `records.changed`): settled orders free waiting deliveries. */
  readonly onChanged?: ((kinds: readonly string[]) => void) | undefined;
}) {
  const { mirror } = options;
  const backoff = options.backoff ?? DEFAULT_FOLLOW_BACKOFF;
  const timers = options.timers ?? realTimers;
  /** The refresh running, and the connection's signal it runs under. */
  let running: { signal: AbortSignal; done: Promise<{ updated: number }> } | null = null;

  const anyUnfinished = () => {
    const u = mirror.records.unfinished();
    return (
      u.deliveries.length +
        u.jobs.length +
        u.visualizations.length +
        u.aois.length +
        u.orders.length >
      0
    );
  };

  async function run(client: EoClient, signal: AbortSignal): Promise<{ updated: number }> {
    try {
      // Each record is stored as it is read: an interrupted refresh keeps what it got.
      const report = await mirror.refreshCreated(client, { signal });
      if (report.kinds.length) {
        options.events.emit('records.changed', { kinds: [...report.kinds] });
        options.onChanged?.(report.kinds);
      }
      return { updated: report.updated };
    } catch (e) {
      throw serviceCallError(e, 'Refreshing what was created');
    }
  }

  function refresh(): Promise<{ updated: number }> {
    const conn = options.connection();
    // Shared only on the same connection: one of a replaced connection was aborted with it, and
    // its "cannot be reached" is not the answer for the new one.
    if (running && running.signal === conn?.signal) return running.done;
    const client = requireClient(conn?.client ?? null, options.noService);
    const previous = running?.done.catch(() => undefined);
    const go = () => run(client, conn!.signal);
    const done = (previous ? previous.then(go) : go()).finally(() => {
      if (running?.done === done) running = null;
    });
    running = { signal: conn!.signal, done };
    return done;
  }

  /** The follow-up's next read, and the wait before it. */
  let timer: unknown = null;
  let waitMs = backoff.firstMs;
  let closed = false;

  function schedule(ms: number): void {
    if (closed || timer !== null) return;
    timer = timers.set(() => {
      timer = null;
      return step();
    }, ms);
  }

  /** One read of the follow-up; schedules the next while something is unfinished. */
  async function step(): Promise<void> {
    if (closed || !options.connection() || !anyUnfinished()) {
      waitMs = backoff.firstMs;
      return;
    }
    try {
      const { updated } = await refresh();
      waitMs = updated > 0 ? backoff.firstMs : Math.min(waitMs * 2, backoff.maxMs);
    } catch (e) {
      // Out of reach: the next connectivity tick that finds the service online follows on.
      if (
        e instanceof ContractError &&
        (e.code === 'offline' || e.code === 'not_configured' || e.code === 'working_offline')
      ) {
        waitMs = backoff.firstMs;
        return;
      }
      console.error('refreshing created records failed:', e instanceof Error ? e.message : e);
      waitMs = Math.min(waitMs * 2, backoff.maxMs);
    }
    if (anyUnfinished()) schedule(waitMs);
  }

  /** Something may have become unfinished (a batch sent creates): follow it from the start. */
  function follow(): void {
    if (closed) return;
    if (timer !== null) timers.clear(timer);
    timer = null;
    waitMs = backoff.firstMs;
    schedule(backoff.firstMs);
  }

  const offFinished = options.events.on('outbox.finished', (r) => {
    if (r.sent > 0) follow();
  });

  return {
    /** `created.refresh`. */
    refresh,
    /**
     * On a connectivity tick that found the service online: read now if anything is unfinished
     * and the follow-up is not already waiting or reading.
     */
    poll(): void {
      const conn = options.connection();
      if (!conn || timer !== null || running?.signal === conn.signal || !anyUnfinished()) return;
      void step();
    },
    follow,
    /** Resolves when no refresh is running (shutdown). */
    async idle(): Promise<void> {
      await running?.done.catch(() => undefined);
    },
    /** Ends the follow-up (the backend closes). */
    close(): void {
      closed = true;
      offFinished();
      if (timer !== null) timers.clear(timer);
      timer = null;
    },
  };
}
