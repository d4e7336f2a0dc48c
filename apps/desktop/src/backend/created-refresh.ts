/**
 * Following what this client created (visualizations, deliveries, jobs) until it is done:
 * `created.refresh` on demand (online only), and a poll on every connectivity tick while the
 * service is online and some created record is unfinished. One refresh at a time; a second
 * caller shares the running one. `records.changed` tells the screens what changed.
 */
import type { EoClient } from '@eo/api-client';
import type { Mirror } from '@eo/sync';
import { ContractError } from '../shared/contract';
import type { BackendEvents } from './events';
import { requireClient, serviceCallError } from './quote';

export function makeCreatedRefresh(options: {
  readonly mirror: Mirror;
  readonly events: BackendEvents;
  /** The current connection's client and the signal that ends with it; null unconfigured. */
  readonly connection: () => { client: EoClient; signal: AbortSignal } | null;
}) {
  const { mirror } = options;
  /** The refresh running, and the connection's signal it runs under. */
  let running: { signal: AbortSignal; done: Promise<{ updated: number }> } | null = null;

  const anyUnfinished = () => {
    const u = mirror.records.unfinished();
    return u.deliveries.length + u.jobs.length + u.visualizations.length > 0;
  };

  async function run(client: EoClient, signal: AbortSignal): Promise<{ updated: number }> {
    try {
      // Each record is stored as it is read: an interrupted refresh keeps what it got.
      const report = await mirror.refreshCreated(client, { signal });
      if (report.kinds.length) options.events.emit('records.changed', { kinds: [...report.kinds] });
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
    const client = requireClient(conn?.client ?? null);
    const previous = running?.done.catch(() => undefined);
    const go = () => run(client, conn!.signal);
    const done = (previous ? previous.then(go) : go()).finally(() => {
      if (running?.done === done) running = null;
    });
    running = { signal: conn!.signal, done };
    return done;
  }

  return {
    /** `created.refresh`. */
    refresh,
    /** On a connectivity tick that found the service online: refresh if anything is unfinished. */
    poll(): void {
      const conn = options.connection();
      if (!conn || running?.signal === conn.signal || !anyUnfinished()) return;
      refresh().catch((e: unknown) => {
        // Unreachable meanwhile: the next tick tries again.
        if (e instanceof ContractError && e.code === 'offline') return;
        console.error('refreshing created records failed:', e instanceof Error ? e.message : e);
      });
    },
    /** Resolves when no refresh is running (shutdown). */
    async idle(): Promise<void> {
      await running?.done.catch(() => undefined);
    },
  };
}
