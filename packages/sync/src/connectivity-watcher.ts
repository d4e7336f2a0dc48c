/**
 * Auto-flush: checks connectivity every `intervalMs` (more often while offline) and flushes the outbox while the service
 * is reachable and something is queued (so it flushes as soon as the network comes back, and
 * again when entries waiting for a retry become due). Stoppable; checks never overlap.
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
  stop(): void;
}

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
}): ConnectivityWatcher {
  const intervalMs = options.intervalMs ?? 30_000;
  const offlineIntervalMs = options.offlineIntervalMs ?? Math.min(intervalMs, 5_000);
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last: ConnectivityCheck | undefined;
  let ticking: Promise<void> | undefined;

  function tick(): void {
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
    if (!controller.signal.aborted) timer = setTimeout(tick, next);
  }

  timer = setTimeout(tick, 0);
  return {
    get last() {
      return last;
    },
    async idle() {
      await ticking;
    },
    stop() {
      controller.abort();
      clearTimeout(timer);
    },
  };
}
