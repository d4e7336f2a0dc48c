/**
 * The outbox: creates queued on the device, sent in FIFO order (dependencies first) when the
 * service is reachable, each exactly once. See the "Outbox" section of packages/sync/README.md.
 */
import { randomUUID } from 'node:crypto';
import { EoAbortError, EoApiError, EoClientError, type EoClient } from '@eo/api-client';
import type Database from 'better-sqlite3';
import { OutboxInputError, OutboxStateError, type FieldProblem, type StoredError } from './errors';
import {
  inputSchemas,
  OUTBOX_KINDS,
  remoteIdOf,
  sendCreate,
  type OutboxInput,
  type OutboxKind,
} from './kinds';
import { findCreated } from './recovery';
import { checkReference, findReferences, resolveReferences, sourceAssetIds } from './references';
import { createOutboxStore, type OutboxEntry, type OutboxState } from './store';

/** Where a successful create goes at once (the integrator wires it to the mirror). */
export interface MirrorWriter {
  recordCreated(kind: OutboxKind, response: unknown): void | Promise<void>;
}

export interface OutboxOptions {
  readonly db: Database.Database;
  readonly client: EoClient;
  readonly mirror?: MirrorWriter | undefined;
  /** Milliseconds since the epoch (injectable for backoff tests). */
  readonly now?: (() => number) | undefined;
  /** [0, 1): backoff jitter. */
  readonly random?: (() => number) | undefined;
  /** Backoff between flushes for an entry that failed transiently: base * 2^(attempts-1), capped. */
  readonly retryBaseMs?: number | undefined;
  readonly retryMaxMs?: number | undefined;
  /** A MirrorWriter that threw: the entry stays `sent` (the next mirror pull repairs the mirror). */
  readonly onMirrorError?: ((err: unknown, entry: OutboxEntry) => void) | undefined;
  /**
   * False for a service that ignores Idempotency-Key: before sending an order again (after a
   * crash or a lost response) the outbox looks for it with GET /v0/orders. Default true.
   */
  readonly serviceHonoursIdempotencyKey?: boolean | undefined;
}

export interface FlushProgress {
  /** In this flush. */
  readonly sent: number;
  readonly failed: number;
  readonly blocked: number;
  /** Entries still queued or sending (including those waiting for their next attempt). */
  readonly remaining: number;
}

export interface FlushOptions {
  readonly signal?: AbortSignal | undefined;
  readonly onProgress?: ((p: FlushProgress) => void) | undefined;
  /**
   * Also send queued entries whose retry backoff has not elapsed (a person asked to submit
   * now). Default false: the background auto-flush honours the backoff.
   */
  readonly ignoreBackoff?: boolean | undefined;
}

export interface Outbox {
  enqueue<K extends OutboxKind>(kind: K, input: OutboxInput<K>): OutboxEntry;
  flush(options?: FlushOptions): Promise<FlushProgress>;
  edit(id: string, input: unknown): OutboxEntry;
  retry(id: string): OutboxEntry;
  cancel(id: string): OutboxEntry;
  list(filter?: { states?: readonly OutboxState[] }): OutboxEntry[];
  get(id: string): OutboxEntry | undefined;
  counts(): Record<OutboxState, number>;
}

const HARD_STOPS: readonly OutboxState[] = ['failed', 'blocked', 'cancelled'];

/** 5xx, 429 and 408 are the service saying "not now"; network failures and timeouts too. */
function isTransient(err: EoClientError): boolean {
  if (err.retryable) return true; // e.g. a queued AOI's assets not produced yet (references.ts)
  if (err instanceof EoApiError)
    return err.status >= 500 || err.status === 429 || err.status === 408;
  return err.kind === 'network' || err.kind === 'timeout';
}

function storedError(err: EoClientError): StoredError {
  const withDetails = err as EoClientError & {
    status?: number;
    code?: string;
    details?: FieldProblem[];
  };
  return {
    kind: err.kind,
    status: withDetails.status,
    code: withDetails.code,
    message: err.message,
    details: withDetails.details?.map((d) => ({ path: d.path, message: d.message })),
  };
}

export function createOutbox(options: OutboxOptions): Outbox {
  const { client, mirror } = options;
  const store = createOutboxStore(options.db);
  const nowMs = options.now ?? Date.now;
  const micros = () => Math.round(nowMs() * 1000);
  const random = options.random ?? Math.random;
  const baseMs = options.retryBaseMs ?? 1_000;
  const maxMs = options.retryMaxMs ?? 300_000;
  const honoursKey = options.serviceHonoursIdempotencyKey ?? true;
  let running: Promise<FlushProgress> | undefined;

  /** Schema and local-id checks; `seqLimit`: references must point at earlier entries. */
  function validate(kind: OutboxKind, input: unknown, seqLimit: number): string[] {
    if (!OUTBOX_KINDS.includes(kind)) {
      throw new OutboxInputError('Unknown kind', [
        { path: '', message: `kind must be one of ${OUTBOX_KINDS.join(', ')}` },
      ]);
    }
    const parsed = inputSchemas[kind].safeParse(input);
    if (!parsed.success) {
      throw new OutboxInputError(
        `Invalid ${kind}`,
        parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      );
    }
    const fields = input as Record<string, unknown>;
    const problems: FieldProblem[] = [];
    if (kind === 'order' && fields.dry_run === true) {
      // A dry run is a quote: it creates nothing, so there is nothing to queue for later.
      problems.push({
        path: 'dry_run',
        message: 'a dry run is not queued; ask for a quote online',
      });
    }
    const deps = new Set<string>();
    for (const ref of findReferences(kind, fields)) {
      const target = store.get(ref.entryId);
      const visible = target && target.seq < seqLimit ? target : undefined;
      const problem = checkReference(ref, kind, fields, visible);
      if (problem) problems.push({ path: ref.path, message: problem });
      deps.add(ref.entryId);
    }
    if (problems.length) throw new OutboxInputError(`Invalid ${kind}`, problems);
    return [...deps];
  }

  function mustGet(id: string): OutboxEntry {
    const entry = store.get(id);
    if (!entry) throw new OutboxStateError(`No outbox entry ${id}`);
    return entry;
  }

  /** Blocks the queued dependents of `id`, transitively; returns how many. */
  function blockDependents(id: string, cause: OutboxEntry, at: number): number {
    let n = 0;
    for (const dep of store.dependents(id)) {
      if (dep.state !== 'queued') continue;
      store.setState(dep.id, 'blocked', blockedError(cause), null, at);
      n += 1 + blockDependents(dep.id, cause, at);
    }
    return n;
  }

  function blockedError(cause: OutboxEntry): StoredError {
    const why = cause.lastError ? `: ${cause.lastError.message}` : '';
    return {
      kind: 'blocked',
      message: `depends on ${cause.kind} ${cause.id}, which is ${cause.state}${why}`,
      ...(cause.lastError?.details ? { details: cause.lastError.details } : {}),
    };
  }

  /** Blocked dependents of `id` back to the queue, transitively (flush re-blocks any still stuck). */
  function unblockDependents(id: string, at: number): void {
    for (const dep of store.dependents(id)) {
      if (dep.state !== 'blocked') continue;
      store.setState(dep.id, 'queued', null, null, at);
      unblockDependents(dep.id, at);
    }
  }

  async function sendOne(entry: OutboxEntry, signal?: AbortSignal): Promise<unknown> {
    const sent = (entryId: string) => {
      const dep = mustGet(entryId);
      return { remoteId: dep.remoteId, response: dep.response };
    };
    const input = await resolveReferences(entry.kind, entry.input, sent, (aoi) =>
      sourceAssetIds(client, aoi, signal),
    );
    // A previous attempt may have reached the service; with a key-honouring service the same
    // key replays it, otherwise look for it first (orders, AOIs, custom indices: recovery.ts).
    if (!honoursKey && entry.attempts > 1) {
      const existing = await findCreated(
        client,
        entry.kind,
        input,
        (remoteId) => store.isRemoteIdTaken(entry.kind, remoteId),
        signal,
      );
      if (existing !== undefined) return existing;
    }
    // Against a key-ignoring service the client must not resend a create on its own (it would
    // duplicate it): each attempt then goes through the outbox, which looks before resending.
    return sendCreate(client, entry.kind, input, {
      signal,
      idempotencyKey: honoursKey ? entry.id : false,
    });
  }

  async function runFlush({
    signal,
    onProgress,
    ignoreBackoff,
  }: FlushOptions): Promise<FlushProgress> {
    // Entries are due when their next attempt time has come; ignoring the backoff, all are.
    const dueAt = () => (ignoreBackoff ? Number.MAX_SAFE_INTEGER : micros());
    let sentCount = 0;
    let failedCount = 0;
    let blockedCount = 0;
    const progress = (): FlushProgress => {
      return {
        sent: sentCount,
        failed: failedCount,
        blocked: blockedCount,
        remaining: store.pending(),
      };
    };
    store.requeueSending(micros());
    let cursor = 0;
    while (!signal?.aborted) {
      const entry = store.nextDue(cursor, dueAt());
      if (!entry) break;
      cursor = entry.seq;
      const deps = entry.dependsOn.map(mustGet);
      const stopped = deps.find((d) => HARD_STOPS.includes(d.state));
      if (stopped) {
        store.setState(entry.id, 'blocked', blockedError(stopped), null, micros());
        blockedCount += 1;
        onProgress?.(progress());
        continue;
      }
      if (deps.some((d) => d.state !== 'sent')) continue; // waits for a dependency's next attempt
      if (!store.markSending(entry.id, micros())) continue;
      const attempt = { ...entry, attempts: entry.attempts + 1 };

      let response: unknown;
      try {
        response = await sendOne(attempt, signal);
      } catch (err) {
        if (!(err instanceof EoClientError)) {
          // Not a transport answer (a bug, the database gone): back to the queue if we still
          // can (the same key makes the resend safe), and let the caller see the real error.
          try {
            store.setState(entry.id, 'queued', entry.lastError, null, micros());
          } catch {
            // The entry stays `sending` and the next flush requeues it.
          }
          throw err;
        }
        if (err instanceof EoAbortError) {
          // It may have reached the service: the next flush sends it again with the same key.
          store.setState(entry.id, 'queued', entry.lastError, null, micros());
          break;
        }
        if (isTransient(err)) {
          const backoff =
            Math.min(maxMs, baseMs * 2 ** (attempt.attempts - 1)) * (0.5 + random() / 2);
          // A Retry-After (429, 503) is the service's own answer to "when": never earlier.
          const wait = Math.max(backoff, err instanceof EoApiError ? (err.retryAfterMs ?? 0) : 0);
          store.setState(
            entry.id,
            'queued',
            storedError(err),
            micros() + Math.round(wait * 1000),
            micros(),
          );
        } else {
          const at = micros();
          store.setState(entry.id, 'failed', storedError(err), null, at);
          failedCount += 1;
          blockedCount += blockDependents(entry.id, mustGet(entry.id), at);
        }
        onProgress?.(progress());
        continue;
      }
      store.markSent(entry.id, response, remoteIdOf(entry.kind, response), micros());
      sentCount += 1;
      try {
        await mirror?.recordCreated(entry.kind, response);
      } catch (err) {
        // The create is on the service and recorded here; the next mirror pull brings it in.
        options.onMirrorError?.(err, mustGet(entry.id));
      }
      onProgress?.(progress());
    }
    return progress();
  }

  return {
    enqueue(kind, input) {
      const copy = JSON.parse(JSON.stringify(input ?? null)) as unknown;
      const dependsOn = validate(kind, copy, Number.POSITIVE_INFINITY);
      const id = randomUUID();
      store.insert(id, kind, copy, dependsOn, micros());
      return mustGet(id);
    },

    flush(opts = {}) {
      // One flush at a time: a second caller shares the running one.
      running ??= runFlush(opts).finally(() => {
        running = undefined;
      });
      return running;
    },

    edit(id, input) {
      const entry = mustGet(id);
      const editable =
        entry.state === 'failed' ||
        entry.state === 'blocked' ||
        (entry.state === 'queued' && entry.attempts === 0);
      if (!editable) {
        throw new OutboxStateError(
          entry.state === 'queued'
            ? `Entry ${id} was already attempted and may be on the service; flush it first`
            : `Entry ${id} is ${entry.state} and cannot be edited`,
        );
      }
      const copy = JSON.parse(JSON.stringify(input ?? null)) as unknown;
      const dependsOn = validate(entry.kind, copy, entry.seq);
      store.transaction(() => {
        const at = micros();
        store.setInput(id, copy, dependsOn, at);
        unblockDependents(id, at);
      });
      return mustGet(id);
    },

    retry(id) {
      const entry = mustGet(id);
      if (entry.state !== 'failed' && entry.state !== 'blocked' && entry.state !== 'queued') {
        throw new OutboxStateError(`Entry ${id} is ${entry.state} and cannot be retried`);
      }
      store.transaction(() => {
        const at = micros();
        store.setState(id, 'queued', entry.state === 'queued' ? entry.lastError : null, null, at);
        unblockDependents(id, at);
      });
      return mustGet(id);
    },

    cancel(id) {
      const entry = mustGet(id);
      if (entry.state === 'sending' || entry.state === 'sent') {
        throw new OutboxStateError(`Entry ${id} is ${entry.state} and cannot be cancelled`);
      }
      if (entry.state === 'queued' && entry.attempts > 0) {
        // A lost response may mean it is on the service: cancelling would be a false promise.
        throw new OutboxStateError(
          `Entry ${id} was already attempted and may be on the service; flush it first`,
        );
      }
      store.transaction(() => {
        const at = micros();
        store.setState(id, 'cancelled', entry.lastError, null, at);
        // Dependents are blocked, not cancelled with it: the user edits or cancels them.
        blockDependents(id, mustGet(id), at);
      });
      return mustGet(id);
    },

    list(filter = {}) {
      return store.list(filter.states);
    },
    get(id) {
      return store.get(id);
    },
    counts() {
      return store.counts();
    },
  };
}
