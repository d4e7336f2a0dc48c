/**
 * A flush: the queue walked in FIFO order (dependencies first), each due entry either left to
 * wait (held, rate-limited, its dependency not sent yet), blocked, or sent (`send-entry.ts`).
 * The per-flush state and outcomes are `flush-run.ts`.
 */
import type { EoClient } from '@eo/api-client';
import type { DeliveryReadiness } from './delivery-wait';
import { blockDependents, blockedError } from './dependents';
import {
  startFlushRun,
  type FlushDeps,
  type FlushProgress,
  type FlushRun,
  type FlushStep,
} from './flush-run';
import { findHandedOver } from './handover';
import { isInDoubt } from './in-doubt';
import type { OutboxKind } from './kinds';
import { sendEntry } from './send-entry';
import type { OutboxEntry, OutboxState } from './store';

export interface FlushOptions {
  /** The connection this flush sends through (default: the outbox's `client`). */
  readonly client?: EoClient | undefined;
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((p: FlushProgress) => void) | undefined;
  /**
   * Also send queued entries whose retry backoff has not elapsed (a person asked to submit
   * now). Default false: the background auto-flush honours the backoff.
   */
  readonly ignoreBackoff?: boolean | undefined;
  /**
   * Queued entries of these kinds stay queued, and their dependents wait with them (a delivery
   * of a held order's items). The desktop's auto-flush holds `PAID_KINDS`: orders cost money
   * and wait for a person's "Submit all". Default: none held.
   */
  readonly holdKinds?: readonly OutboxKind[] | undefined;
  /**
   * Queued entries held by id, their dependents waiting with them (the paid orders another
   * laptop handed over, until a person here confirms them at a fresh quote). Default: none.
   */
  readonly holdIds?: readonly string[] | undefined;
  /**
   * Ids of held-kind entries that go all the same: the orders a person reviewed and confirmed
   * (their dependents follow them). Other entries of a held kind stay queued.
   */
  readonly release?: readonly string[] | undefined;
}

export interface FlushQueueDeps extends FlushDeps {
  /** Set when a delivery of a queued order's items waits for them (`delivery-wait.ts`). */
  readonly deliveryReadiness?:
    ((entry: OutboxEntry, sent: (entryId: string) => OutboxEntry) => DeliveryReadiness) | undefined;
}

/** A dependency in one of these holds its dependents `blocked` (unconfirmed: until the user decides). */
const HARD_STOPS: readonly OutboxState[] = ['failed', 'blocked', 'cancelled', 'unconfirmed'];

export async function runFlush(
  deps: FlushQueueDeps,
  client: EoClient,
  opts: FlushOptions,
): Promise<FlushProgress> {
  const { store, micros } = deps;
  const { signal, onProgress } = opts;
  const run = startFlushRun(deps, client, signal);
  // Entries are due when their next attempt time has come; ignoring the backoff, all are.
  const dueAt = () => (opts.ignoreBackoff ? Number.MAX_SAFE_INTEGER : micros());
  store.requeueSending(micros());
  // Work handed over to another laptop: found sent on the service once it got there.
  await findHandedOver({ store, client, micros, due: dueAt(), signal, record: run.recordSent });
  let cursor = 0;
  while (!signal?.aborted) {
    const entry = store.nextDue(cursor, dueAt());
    if (!entry) break;
    cursor = entry.seq;
    let step = readyToSend(deps, run, entry, opts, dueAt());
    if (step === 'send') step = await doubtCleared(run, entry);
    if (step === 'send') step = await sendEntry(deps, run, entry);
    if (step === 'stop') break;
    if (step === 'progress') onProgress?.(run.progress());
  }
  return run.progress();
}

/** Waits (held, rate-limited, its dependencies not sent or its order's items not complete) or is blocked. */
function readyToSend(
  deps: FlushQueueDeps,
  run: FlushRun,
  entry: OutboxEntry,
  { holdKinds = [], holdIds = [], release = [] }: FlushOptions,
  due: number,
): FlushStep {
  const { store, micros } = deps;
  // Held, its dependents wait with it (it is not `sent`), unless a person released it.
  const held = holdKinds.includes(entry.kind) || holdIds.includes(entry.id);
  if (held && !release.includes(entry.id)) return 'skip';
  if ((run.heldUntil.get(entry.kind) ?? 0) > due) return 'skip'; // rate-limited: a later flush
  const dependencies = entry.dependsOn.map((id) => store.mustGet(id));
  const stopped = dependencies.find((d) => HARD_STOPS.includes(d.state));
  if (stopped) {
    store.setState(entry.id, 'blocked', blockedError(stopped), null, micros());
    run.tally.blocked += 1;
    return 'progress';
  }
  if (dependencies.some((d) => d.state !== 'sent')) return 'skip'; // a dependency's next attempt
  if (!deps.deliveryReadiness || entry.kind !== 'delivery' || dependencies.length === 0)
    return 'send';
  // Its order is sent; its items must be complete before a delivery can be made of them.
  const ready = deps.deliveryReadiness(entry, (id) => store.mustGet(id));
  if (ready.go) return 'send';
  const at = micros();
  if (ready.never) {
    store.setState(entry.id, 'blocked', { kind: 'blocked', message: ready.message }, null, at);
    run.tally.blocked += 1 + blockDependents(store, entry.id, store.mustGet(entry.id), at);
  } else {
    // Not attempted: stays queued (editable, cancellable); a later flush looks again.
    store.setState(entry.id, 'queued', { kind: 'waiting', message: ready.message }, null, at);
  }
  return 'progress';
}

/**
 * An entry in doubt (an earlier attempt may be on the service) is resent only with a key the
 * service honours; otherwise looked for, or left to wait. An attempt the service said it was
 * still processing is asked again with its key: the service answers with that attempt's outcome.
 */
async function doubtCleared(run: FlushRun, entry: OutboxEntry): Promise<FlushStep> {
  const doubted = isInDoubt(entry.lastError) ? entry.lastError : null;
  if (!doubted || doubted.keyInProgress) return 'send';
  const honoured = await run.keyHonoured();
  if (run.signal?.aborted) return 'stop';
  if (honoured === 'yes') return 'send';
  if (honoured === 'no') await run.settle(entry, doubted);
  else run.waitInDoubt(entry, doubted, Math.max(1, entry.attempts));
  return 'progress';
}
