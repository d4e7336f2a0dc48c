/**
 * Auto-flush: checks connectivity every `intervalMs` (more often while offline) and flushes the outbox while the service
 * is reachable and something is queued (so it flushes as soon as the network comes back, and
 * again when entries waiting for a retry become due). Stoppable; checks never overlap.
 *
 * `checkSoon()` is for the operating system's network signals (a link went up or down, the
 * machine woke): the next check comes `signalSettleMs` after the signal instead of at the
 * timer, since the signal itself proves nothing (a link that is up does not mean the service is
 * reachable). Signals are coalesced: however many arrive, one check, and never sooner than
 * `signalGapMs` after the previous check started, so a flapping link cannot hammer the service.
 */
import type { EoClient } from '@eo/api-client';
import { checkConnectivity, type ConnectivityCheck } from './connectivity';

export interface FlushTarget {
  flush(options?: { signal?: AbortSignal }): Promise<unknown>;
  counts(): { readonly queued: number };
}

export interface ConnectivityWatcher {
  /** The last check, undefined before the first. */
  readonly last: ConnectivityCheck | undefined;
  /**
   * Resolves when no check (or the flush it started) is in flight: a check started before the
   * service came back may still answer "online" after it (its client retries), and flush.
   */
  idle(): Promise<void>;
  /**
   * A network signal: check `signalSettleMs` from now (later if a check started less than
   * `signalGapMs` ago), unless one is due sooner. True when that moved the next check earlier
   * (or one in flight will be followed by it); false when stopped or already as soon.
   */
  checkSoon(): boolean;
  stop(): void;
}

/** The timers the watcher runs on (tests pass a manual clock). */
export interface WatcherClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: WatcherClock = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function watchConnectivity(options: {
  readonly client: EoClient;
  readonly outbox: FlushTarget;
  readonly intervalMs?: number | undefined;
  /**
   * Checks this often while the last check did not find the service online, so its return is
   * noticed soon (a check of an absent service costs no data). Default min(intervalMs, 5 000).
   */
  readonly offlineIntervalMs?: number | undefined;
  readonly timeoutMs?: number | undefined;
  readonly onStatus?: ((check: ConnectivityCheck) => void) | undefined;
  /** A flush that throws (e.g. the database went away) is reported here, not thrown. */
  readonly onError?: ((err: unknown) => void) | undefined;
  /** How long after a network signal the check comes (the link settles). Default 1 000. */
  readonly signalSettleMs?: number | undefined;
  /** The least time between the start of a check and one a signal asks for. Default 5 000. */
  readonly signalGapMs?: number | undefined;
  /**
   * The first check waits for this to settle (the app's first screen: the first check loads the
   * HTTP client and takes a core while the screen is drawn). Default: at once. A signal
   * meanwhile is honoured as usual.
   */
  readonly firstCheckAfter?: PromiseLike<unknown> | undefined;
  readonly clock?: WatcherClock | undefined;
}): ConnectivityWatcher {
  const intervalMs = options.intervalMs ?? 30_000;
  const offlineIntervalMs = options.offlineIntervalMs ?? Math.min(intervalMs, 5_000);
  const settleMs = options.signalSettleMs ?? 1_000;
  const gapMs = options.signalGapMs ?? 5_000;
  const clock = options.clock ?? realClock;
  const controller = new AbortController();
  let timer: unknown;
  /** When the scheduled check fires (clock time). */
  let dueAt = Infinity;
  let startedAt = -Infinity;
  /** A signal came while a check was in flight: its answer may predate the change. */
  let signalled = false;
  /** A check (and the flush it started) is running: it schedules the next when it ends. */
  let inFlight = false;
  let last: ConnectivityCheck | undefined;
  let ticking: Promise<void> | undefined;

  /** The next check at clock time `at` (absolute: signals compare it with their own). */
  function scheduleAt(at: number): void {
    clock.clearTimeout(timer);
    dueAt = at;
    timer = clock.setTimeout(tick, Math.max(0, at - clock.now()));
  }

  /** When a check asked for by a signal now may start. */
  const signalAt = () => Math.max(clock.now() + settleMs, startedAt + gapMs);

  function tick(): void {
    dueAt = Infinity;
    startedAt = clock.now();
    signalled = false;
    inFlight = true;
    const current = check().finally(() => {
      if (ticking === current) ticking = undefined;
    });
    ticking = current;
  }

  async function check(): Promise<void> {
    try {
      last = await checkConnectivity(options.client, {
        signal: controller.signal,
        timeoutMs: options.timeoutMs,
      });
      options.onStatus?.(last);
      if (last.status === 'online' && options.outbox.counts().queued > 0) {
        await options.outbox.flush({ signal: controller.signal });
      }
    } catch (err) {
      if (!controller.signal.aborted) options.onError?.(err);
    }
    const next = last?.status === 'online' ? intervalMs : offlineIntervalMs;
    inFlight = false;
    const at = clock.now() + next;
    if (!controller.signal.aborted) scheduleAt(signalled ? Math.min(at, signalAt()) : at);
  }

  /** The first check now, unless stopped or a signal's check started already. */
  function first(): void {
    if (!controller.signal.aborted && startedAt === -Infinity) scheduleAt(clock.now());
  }
  if (options.firstCheckAfter) options.firstCheckAfter.then(first, first);
  else first();
  return {
    get last() {
      return last;
    },
    async idle() {
      await ticking;
    },
    checkSoon() {
      if (controller.signal.aborted) return false;
      if (inFlight) {
        // The check in flight is followed by another; later signals add nothing.
        const first = !signalled;
        signalled = true;
        return first;
      }
      const at = signalAt();
      if (dueAt <= at) return false;
      scheduleAt(at);
      return true;
    },
    stop() {
      controller.abort();
      clock.clearTimeout(timer);
    },
  };
}
