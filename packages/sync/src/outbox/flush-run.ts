/**
 * One flush's state and the outcomes it records: its tally (what `onProgress` reports), the
 * idempotency answer it asks the service once, and what becomes of an entry sent, in doubt, or
 * looked for (`settle`). The loop that walks the queue is `flush.ts`.
 */
import { EoAbortError, EoClientError, type EoClient } from '@eo/api-client';
import type { IdempotencyPolicy } from '@eo/domain';
import { blockDependents } from './dependents';
import type { StoredError } from './errors';
import { candidateIdOf, unconfirmedMessage } from './in-doubt';
import { remoteIdOf, type OutboxKind } from './kinds';
import { findCreated, LOOKUP_KINDS } from './recovery';
import type { OutboxEntry, OutboxStore } from './store';

/** Where a successful create goes at once (the integrator wires it to the mirror). */
export interface MirrorWriter {
  recordCreated(kind: OutboxKind, response: unknown): void | Promise<void>;
}

export interface FlushProgress {
  /** In this flush. */
  readonly sent: number;
  readonly failed: number;
  readonly blocked: number;
  /** Entries this flush left `unconfirmed` (in doubt; they wait for the user). */
  readonly unconfirmed: number;
  /** Entries still queued or sending (including those waiting for their next attempt). */
  readonly remaining: number;
}

/** What a flush needs from its outbox. */
export interface FlushDeps {
  readonly store: OutboxStore;
  readonly micros: () => number;
  /** Microseconds of an entry's next attempt after `attempts` (`send-failure.ts` makeBackoff). */
  readonly nextAttemptAt: (attempts: number, err: EoClientError | undefined) => number;
  /** This flush's idempotency policy (a setting is read once per flush). */
  readonly policy: IdempotencyPolicy;
  readonly mirror?: MirrorWriter | undefined;
  readonly onMirrorError?: ((err: unknown, entry: OutboxEntry) => void) | undefined;
}

export type KeyAnswer = 'yes' | 'no' | 'unreachable';

/**
 * What the flush does after one step on an entry: go on to send it, skip it silently (it waits),
 * report progress (its state changed) or stop (aborted).
 */
export type FlushStep = 'send' | 'skip' | 'progress' | 'stop';

export type FlushRun = ReturnType<typeof startFlushRun>;

export function startFlushRun(deps: FlushDeps, client: EoClient, signal: AbortSignal | undefined) {
  const { store, micros, policy } = deps;
  const tally = { sent: 0, failed: 0, blocked: 0, unconfirmed: 0 };
  /**
   * Kinds a 429 holds, until when (µs): the service limits that create (each kind is its own
   * endpoint, and services rate-limit per endpoint), so the kind's other entries wait with it
   * and the other kinds go on. The limited entry itself is queued with its Retry-After, which
   * is what a later flush (or a restarted app) reads the hold from: a new flush does not ask
   * again before the service said it may. Ignoring the backoff (a person's "send now") ignores
   * it too, as it does the entry's own next attempt.
   */
  const heldUntil = store.rateLimitedUntil(micros());
  const progress = (): FlushProgress => ({ ...tally, remaining: store.pending() });

  /**
   * Does the service honour the key? Forced by the policy, or what it said; still unknown,
   * one cheap read per flush asks it (our service says it on every response). `unreachable`:
   * that read failed for the network's reasons, so nothing can be decided now.
   */
  let probe: Promise<KeyAnswer> | undefined;
  const keyHonoured = (): Promise<KeyAnswer> => {
    if (policy !== 'auto') return Promise.resolve(policy === 'honoured' ? 'yes' : 'no');
    const said = () => (client.capabilities.idempotencyKey === 'honoured' ? 'yes' : 'no');
    if (client.capabilities.idempotencyKey !== 'unknown') return Promise.resolve(said());
    probe ??= client
      .listIndices({ limit: 1 }, { signal })
      .then(said, (err: unknown) =>
        err instanceof EoClientError && err.retryable ? 'unreachable' : said(),
      );
    return probe;
  };

  async function recordSent(entry: OutboxEntry, response: unknown): Promise<void> {
    store.markSent(entry.id, response, remoteIdOf(entry.kind, response), micros());
    tally.sent += 1;
    try {
      await deps.mirror?.recordCreated(entry.kind, response);
    } catch (err) {
      // The create is on the service and recorded here; the next mirror pull brings it in.
      deps.onMirrorError?.(err, store.mustGet(entry.id));
    }
  }

  /** Still in doubt, nothing decided: back to the queue with the doubt kept, after a backoff. */
  function waitInDoubt(
    entry: OutboxEntry,
    error: StoredError,
    attempts: number,
    err?: EoClientError,
  ): void {
    const next = deps.nextAttemptAt(attempts, err);
    store.setState(entry.id, 'queued', { ...error, inDoubt: true }, next, micros());
  }

  /** Not sent and never will be as it is (failed, or unconfirmed): its dependents blocked. */
  function blockAfter(entry: OutboxEntry, at: number): void {
    tally.blocked += blockDependents(store, entry.id, store.mustGet(entry.id), at);
  }

  /**
   * A create in doubt on a service not known to honour the key: look for it (orders, AOIs,
   * custom indices); found, it is `sent`; otherwise `unconfirmed`, for the user. `raw`: the
   * unusable body of a 2xx answer, kept with the entry.
   */
  async function settle(entry: OutboxEntry, error: StoredError, raw?: unknown): Promise<void> {
    let found: unknown;
    if (LOOKUP_KINDS.includes(entry.kind)) {
      const isClaimed = (remoteId: string) => store.isRemoteIdTaken(entry.kind, remoteId);
      try {
        found = await findCreated(client, entry.kind, entry.input, isClaimed, signal);
      } catch (err) {
        if (!(err instanceof EoClientError)) throw err;
        // The lookup could not run (offline again, aborted): decide on a later flush.
        if (err instanceof EoAbortError)
          store.setState(entry.id, 'queued', { ...error, inDoubt: true }, null, micros());
        else waitInDoubt(entry, error, Math.max(1, entry.attempts), err);
        return;
      }
    }
    if (found !== undefined) {
      await recordSent(entry, found);
      return;
    }
    const why = LOOKUP_KINDS.includes(entry.kind)
      ? `no matching ${entry.kind} was found on the service`
      : `the service cannot list ${entry.kind}s to check`;
    const at = micros();
    const candidateId = raw === undefined ? undefined : candidateIdOf(entry.kind, raw);
    store.markUnconfirmed(
      entry.id,
      {
        ...error,
        inDoubt: true,
        message: unconfirmedMessage(why, error.message),
        ...(candidateId ? { candidateId } : {}),
      },
      raw,
      at,
    );
    tally.unconfirmed += 1;
    blockAfter(entry, at);
  }

  return {
    client,
    signal,
    tally,
    heldUntil,
    progress,
    keyHonoured,
    recordSent,
    waitInDoubt,
    blockAfter,
    settle,
  };
}
