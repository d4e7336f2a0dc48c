/**
 * One entry's attempt at a flush: its references resolved, the create sent with its key, and
 * the answer recorded (sent, in doubt, queued again, failed: `send-failure.ts` decides which).
 */
import { EoClientError, type EoClient } from '@eo/api-client';
import type { StoredError } from './errors';
import type { FlushDeps, FlushRun, FlushStep } from './flush-run';
import { isInDoubt } from './in-doubt';
import { checkedAtEnqueue, remoteIdOf, sendCreate } from './kinds';
import { resolveReferences, sourceAssetIds } from './references';
import { isRateLimited, sendFailure, type SendFailure } from './send-failure';
import type { OutboxEntry } from './store';

/** `onLeaving` is called just before the create itself is sent (after reference lookups). */
async function sendOne(
  deps: FlushDeps,
  client: EoClient,
  entry: OutboxEntry,
  signal: AbortSignal | undefined,
  onLeaving: () => void,
): Promise<unknown> {
  const sent = (entryId: string) => {
    const dep = deps.store.mustGet(entryId);
    return { remoteId: dep.remoteId, response: dep.response };
  };
  const input = await resolveReferences(entry.kind, entry.input, sent, (aoi) =>
    sourceAssetIds(client, aoi, signal),
  );
  onLeaving();
  // Always with the entry's key: a service that honours it replays a repeat. The client
  // itself resends only to a service that said so; forced `ignored`, no key is sent at all.
  // Validated at enqueue (or edit) with the schema the client checks with: sent as stored
  // when it had no reference to resolve, without a second check.
  const asStored = entry.dependsOn.length === 0;
  return sendCreate(client, entry.kind, input, {
    signal,
    idempotencyKey: deps.policy === 'ignored' ? false : entry.id,
    // A 429's Retry-After holds this kind only (`heldUntil`), not the whole queue.
    waitRetryAfter: false,
    ...(asStored && checkedAtEnqueue(client.dialect, entry.kind) ? { validate: false } : {}),
  });
}

/** Sends `entry` (due, its dependencies sent, not in doubt or resendable) and records the answer. */
export async function sendEntry(
  deps: FlushDeps,
  run: FlushRun,
  entry: OutboxEntry,
): Promise<FlushStep> {
  const { store, micros } = deps;
  const doubted = isInDoubt(entry.lastError) ? entry.lastError : null;
  const leftAt = micros();
  if (!store.markSending(entry.id, leftAt)) return 'skip';
  const attempt = { ...entry, attempts: entry.attempts + 1 };

  let leaving = false;
  let response: unknown;
  try {
    response = await sendOne(deps, run.client, attempt, run.signal, () => {
      leaving = true;
    });
  } catch (err) {
    if (!(err instanceof EoClientError)) {
      // Not a transport answer (a bug, the database gone): back to the queue if we still
      // can (in doubt if the create had left), and let the caller see the real error.
      const error: StoredError | null = leaving
        ? { kind: 'internal', message: String(err), inDoubt: true, attemptedAt: leftAt }
        : entry.lastError;
      try {
        store.setState(entry.id, 'queued', error, null, micros());
      } catch {
        // The entry stays `sending` and the next flush requeues it, in doubt.
      }
      throw err;
    }
    const failure = sendFailure(err, {
      leaving,
      leftAt,
      doubted,
      lastError: entry.lastError,
      policy: deps.policy,
    });
    return recordFailure(deps, run, attempt, failure, err);
  }
  if (remoteIdOf(entry.kind, response) === null) {
    // A 2xx that names nothing it created (an empty `deliveries` list): created or not, the
    // answer cannot say; never `sent` without an id, never resent blindly.
    const error: StoredError = {
      kind: 'response',
      message: `${entry.kind}: the service answered without the created id`,
      inDoubt: true,
      attemptedAt: leftAt,
    };
    await run.settle(attempt, error, response);
    return 'progress';
  }
  await run.recordSent(entry, response);
  return 'progress';
}

/** Carries out `failure` for `attempt` (the entry with this attempt counted). */
async function recordFailure(
  deps: FlushDeps,
  run: FlushRun,
  attempt: OutboxEntry,
  failure: SendFailure,
  err: EoClientError,
): Promise<FlushStep> {
  const { store, micros } = deps;
  const { id, kind, attempts } = attempt;
  if (failure.next === 'key-in-progress') {
    store.setState(id, 'queued', failure.error, deps.nextAttemptAt(attempts, err), micros());
    return 'progress';
  }
  // Rate-limited: this kind's other entries wait for the Retry-After too (`heldUntil`).
  if (isRateLimited(err)) run.heldUntil.set(kind, deps.nextAttemptAt(attempts, err));
  switch (failure.next) {
    case 'aborted':
      store.setState(id, 'queued', failure.error, null, micros());
      return 'stop';
    case 'settle':
      await run.settle(attempt, failure.error, failure.raw);
      break;
    case 'in-doubt':
      // Honoured: sent again later with the same key. Unknown (the read that asks failed):
      // decided later. Not honoured: looked for now, else left to the user.
      if ((await run.keyHonoured()) === 'no') await run.settle(attempt, failure.error);
      else run.waitInDoubt(attempt, failure.error, attempts, err);
      break;
    case 'retry':
      store.setState(id, 'queued', failure.error, deps.nextAttemptAt(attempts, err), micros());
      break;
    case 'failed': {
      const at = micros();
      store.setState(id, 'failed', failure.error, null, at);
      run.tally.failed += 1;
      run.blockAfter(attempt, at);
      break;
    }
  }
  return 'progress';
}
