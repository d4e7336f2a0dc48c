/**
 * The outbox: creates queued on the device, sent in FIFO order (dependencies first) when the
 * service is reachable, each exactly once. See the "Outbox" section of packages/sync/README.md.
 */
import { randomUUID } from 'node:crypto';
import { EoAbortError, EoApiError, EoClientError, type EoClient } from '@eo/api-client';
import type { HandoverEntry, IdempotencyPolicy, ServiceDialect } from '@eo/domain';
import type Database from 'better-sqlite3';
import { OutboxInputError, OutboxStateError, type FieldProblem, type StoredError } from './errors';
import {
  candidateIdOf,
  isCreatedWithoutId,
  isInDoubt,
  isKeyInProgress,
  mayHaveCreated,
  unconfirmedMessage,
} from './in-doubt';
import {
  checkedAtEnqueue,
  inputSchemas,
  profileSchema,
  OUTBOX_KINDS,
  PAID_KINDS,
  remoteIdOf,
  sendCreate,
  type OutboxInput,
  type OutboxKind,
} from './kinds';
import { makeDeliveryReadiness } from './delivery-wait';
import { LIVE_ORDER_STATES, makeOrderChecks } from './order-checks';
import { makeSatelliteChecks } from './satellite-checks';
import { findCreated, LOOKUP_KINDS } from './recovery';
import { checkReference, findReferences, resolveReferences, sourceAssetIds } from './references';
import { createOutboxStore, type OutboxEntry, type OutboxState } from './store';
import {
  findHandedOver,
  makeHandover,
  type HandoverExport,
  type HandoverOptions,
  type HandoverReceipt,
} from './handover';

/** Where a successful create goes at once (the integrator wires it to the mirror). */
export interface MirrorWriter {
  recordCreated(kind: OutboxKind, response: unknown): void | Promise<void>;
}

export interface OutboxOptions {
  readonly db: Database.Database;
  /**
   * The client flushes send through when they name none. Optional: queueing, editing and
   * listing need no service, and an outbox outlives a connection (`flush({ client })`).
   */
  readonly client?: EoClient | undefined;
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
   * Does the service honour Idempotency-Key? `auto` (default): only when it said so
   * (`client.capabilities`; when still unknown, one cheap read per flush asks). `honoured` /
   * `ignored` force it. It decides what happens to a create in doubt (its answer was lost, it
   * timed out, a 502/503/504, a crash while sending): sent again with the same key, or looked
   * for (`recovery.ts`) and otherwise left `unconfirmed` for the user. A function is asked at
   * each flush (a setting the user may change while the app runs).
   */
  readonly idempotency?: IdempotencyPolicy | (() => IdempotencyPolicy) | undefined;
  /**
   * A delivery of a queued order's items (`local:<order>#n`) waits, queued with a `waiting`
   * error, until the mirror shows those items completed (`delivery-wait.ts`): sent at once, the
   * service fails it. Default false (sent as soon as the order is); the desktop turns it on.
   */
  readonly waitForOrderItems?: boolean | undefined;
  /**
   * The service profile entries are for, when known when they are queued (the CLI's
   * `--dialect`): its own rules are checked at enqueue and edit too (`profileSchema`), so an
   * order `provider-v0` refuses (no `usecase`) is refused then, not at the flush. Default: the
   * open schema only (an outbox may outlive its service).
   */
  readonly dialect?: ServiceDialect | undefined;
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

export interface Outbox {
  enqueue<K extends OutboxKind>(kind: K, input: OutboxInput<K>): OutboxEntry;
  /**
   * Several creates queued all or nothing, in one transaction: one refused and none is queued
   * (an `OutboxInputError` whose paths start with the create's index: `1.name`). Later ones
   * may refer to earlier ones (`local:<id>` of an entry queued before the call only).
   */
  enqueueAll(creates: ReadonlyArray<{ kind: OutboxKind; input: unknown }>): OutboxEntry[];
  flush(options?: FlushOptions): Promise<FlushProgress>;
  edit(id: string, input: unknown): OutboxEntry;
  retry(id: string): OutboxEntry;
  cancel(id: string): OutboxEntry;
  /**
   * An `unconfirmed` entry is on the service (the user checked): `sent`, with the given remote
   * id, or the candidate the answer suggested. Offline.
   */
  confirm(id: string, remoteId?: string): OutboxEntry;
  /** An `unconfirmed` entry is not on the service (the user checked): queued to be sent again. */
  resend(id: string): OutboxEntry;
  list(filter?: { states?: readonly OutboxState[] }): OutboxEntry[];
  get(id: string): OutboxEntry | undefined;
  counts(): Record<OutboxState, number>;
  /**
   * Queued work for another laptop to send (`handover.ts`): the entries asked for (default all
   * queued) with what they need, `handed_over` here from now on; the caller writes the file
   * and takes them back if it cannot.
   */
  handOver(options?: HandoverOptions): HandoverExport;
  /** What `handOver` would hand over, with the file's entries; nothing marked. */
  previewHandover(options?: HandoverOptions): HandoverExport;
  /** A handed-over entry back to the queue: the other laptop never had it (the user's word). */
  takeBack(id: string): OutboxEntry;
  /**
   * Another laptop's handed-over work (and receipts of ours it sent), all or nothing; receipts
   * are written into the mirror as creates are.
   */
  receive(entries: readonly HandoverEntry[]): Promise<HandoverReceipt>;
}

/** A dependency in one of these holds its dependents `blocked` (unconfirmed: until the user decides). */
const hasOrderItems = (response: unknown) =>
  Array.isArray((response as { order_items?: unknown } | null)?.order_items);

const HARD_STOPS: readonly OutboxState[] = ['failed', 'blocked', 'cancelled', 'unconfirmed'];

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
  const { mirror } = options;
  const store = createOutboxStore(options.db);
  const nowMs = options.now ?? Date.now;
  const micros = () => Math.round(nowMs() * 1000);
  const random = options.random ?? Math.random;
  const baseMs = options.retryBaseMs ?? 1_000;
  const maxMs = options.retryMaxMs ?? 300_000;
  const setting = options.idempotency ?? 'auto';
  let policy: IdempotencyPolicy = typeof setting === 'function' ? 'auto' : setting;
  let running: Promise<FlushProgress> | undefined;
  const checkOrder = makeOrderChecks(options.db);
  const checkSatellites = makeSatelliteChecks(options.db);
  const deliveryReadiness = makeDeliveryReadiness(options.db);
  const handover = makeHandover({
    store,
    micros,
    paidKinds: PAID_KINDS,
    validate: (kind, input, inDoubt) =>
      validate(kind, input, Number.POSITIVE_INFINITY, undefined, !inDoubt),
  });

  /**
   * Schema and local-id checks, an order's offline checks (`order-checks.ts`), an AOI's and a
   * visualization's satellites (`satellite-checks.ts`); `seqLimit`: references must point at
   * earlier entries; `self`: the entry being edited; `duplicates`: false for an order in doubt
   * from another laptop (the order placed may be this very one).
   */
  function validate(
    kind: OutboxKind,
    input: unknown,
    seqLimit: number,
    self?: string,
    duplicates = true,
  ): string[] {
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
    const profile = options.dialect && profileSchema(options.dialect, kind);
    const forProfile = profile ? profile.safeParse(input) : undefined;
    if (forProfile && !forProfile.success) {
      throw new OutboxInputError(
        `Invalid ${kind} for the ${options.dialect} service profile`,
        forProfile.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
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
    if (kind === 'order' && problems.length === 0 && duplicates) {
      const others = store.list(LIVE_ORDER_STATES);
      problems.push(
        ...checkOrder(
          parsed.data as Parameters<typeof checkOrder>[0],
          others.filter((e) => e.id !== self),
        ),
      );
    }
    if (kind === 'aoi' && problems.length === 0) problems.push(...checkSatellites.aoi(fields));
    if (kind === 'visualization' && problems.length === 0) {
      problems.push(...checkSatellites.visualization(fields, (id) => store.get(id) ?? undefined));
    }
    if (problems.length) throw new OutboxInputError(`Invalid ${kind}`, problems);
    return [...deps];
  }

  function mustGet(id: string): OutboxEntry {
    const entry = store.get(id);
    if (!entry) throw new OutboxStateError(`No outbox entry ${id}`);
    return entry;
  }

  function mustUnconfirmed(id: string, action: string): OutboxEntry {
    const entry = mustGet(id);
    if (entry.state !== 'unconfirmed') {
      throw new OutboxStateError(
        `Entry ${id} is ${entry.state}; only an unconfirmed entry can be ${action}`,
      );
    }
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

  function orderItemsUnknown(order: OutboxEntry): StoredError {
    return {
      kind: 'blocked',
      message: `order ${order.id} was confirmed by hand, so its order item ids are not known here: edit this entry to name the order item ids`,
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

  /** `onLeaving` is called just before the create itself is sent (after reference lookups). */
  async function sendOne(
    client: EoClient,
    entry: OutboxEntry,
    signal: AbortSignal | undefined,
    onLeaving: () => void,
  ): Promise<unknown> {
    const sent = (entryId: string) => {
      const dep = mustGet(entryId);
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
      idempotencyKey: policy === 'ignored' ? false : entry.id,
      // A 429's Retry-After holds this kind only (`heldUntil`), not the whole queue.
      waitRetryAfter: false,
      ...(asStored && checkedAtEnqueue(client.dialect, entry.kind) ? { validate: false } : {}),
    });
  }

  /** Microseconds until the next attempt: backoff, never earlier than a Retry-After. */
  function nextAttemptAt(attempts: number, err: EoClientError | undefined): number {
    const backoff = Math.min(maxMs, baseMs * 2 ** (attempts - 1)) * (0.5 + random() / 2);
    const wait = Math.max(backoff, err instanceof EoApiError ? (err.retryAfterMs ?? 0) : 0);
    return micros() + Math.round(wait * 1000);
  }

  async function runFlush(
    client: EoClient,
    { signal, onProgress, ignoreBackoff, holdKinds = [], holdIds = [], release = [] }: FlushOptions,
  ): Promise<FlushProgress> {
    if (typeof setting === 'function') policy = setting();
    // Entries are due when their next attempt time has come; ignoring the backoff, all are.
    const dueAt = () => (ignoreBackoff ? Number.MAX_SAFE_INTEGER : micros());
    let sentCount = 0;
    let failedCount = 0;
    let blockedCount = 0;
    let unconfirmedCount = 0;
    const progress = (): FlushProgress => {
      return {
        sent: sentCount,
        failed: failedCount,
        blocked: blockedCount,
        unconfirmed: unconfirmedCount,
        remaining: store.pending(),
      };
    };
    const isClaimed = (kind: OutboxKind) => (remoteId: string) =>
      store.isRemoteIdTaken(kind, remoteId);

    /**
     * Does the service honour the key? Forced by the policy, or what it said; still unknown,
     * one cheap read per flush asks it (our service says it on every response). `unreachable`:
     * that read failed for the network's reasons, so nothing can be decided now.
     */
    let probe: Promise<'yes' | 'no' | 'unreachable'> | undefined;
    const keyHonoured = (): Promise<'yes' | 'no' | 'unreachable'> => {
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
      sentCount += 1;
      try {
        await mirror?.recordCreated(entry.kind, response);
      } catch (err) {
        // The create is on the service and recorded here; the next mirror pull brings it in.
        options.onMirrorError?.(err, mustGet(entry.id));
      }
    }

    /** Still in doubt, nothing decided: back to the queue with the doubt kept, after a backoff. */
    function waitInDoubt(
      entry: OutboxEntry,
      error: StoredError,
      attempts: number,
      err?: EoClientError,
    ) {
      store.setState(
        entry.id,
        'queued',
        { ...error, inDoubt: true },
        nextAttemptAt(attempts, err),
        micros(),
      );
    }

    /**
     * A create in doubt on a service not known to honour the key: look for it (orders, AOIs,
     * custom indices); found, it is `sent`; otherwise `unconfirmed`, for the user. `raw`: the
     * unusable body of a 2xx answer, kept with the entry.
     */
    async function settle(entry: OutboxEntry, error: StoredError, raw?: unknown): Promise<void> {
      let found: unknown;
      if (LOOKUP_KINDS.includes(entry.kind)) {
        try {
          found = await findCreated(client, entry.kind, entry.input, isClaimed(entry.kind), signal);
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
      unconfirmedCount += 1;
      blockedCount += blockDependents(entry.id, mustGet(entry.id), at);
    }

    /**
     * Kinds a 429 holds, until when (µs): the service limits that create (each kind is its own
     * endpoint, and services rate-limit per endpoint), so the kind's other entries wait with it
     * and the other kinds go on. The limited entry itself is queued with its Retry-After, which
     * is what a later flush (or a restarted app) reads the hold from: a new flush does not ask
     * again before the service said it may. Ignoring the backoff (a person's "send now") ignores
     * it too, as it does the entry's own next attempt.
     */
    const heldUntil = store.rateLimitedUntil(micros());
    store.requeueSending(micros());
    // Work handed over to another laptop: found sent on the service once it got there.
    await findHandedOver({ store, client, micros, due: dueAt(), signal, record: recordSent });
    let cursor = 0;
    while (!signal?.aborted) {
      const entry = store.nextDue(cursor, dueAt());
      if (!entry) break;
      cursor = entry.seq;
      // Held, its dependents wait with it (it is not `sent`), unless a person released it.
      const held = holdKinds.includes(entry.kind) || holdIds.includes(entry.id);
      if (held && !release.includes(entry.id)) continue;
      if ((heldUntil.get(entry.kind) ?? 0) > dueAt()) continue; // rate-limited: a later flush
      const deps = entry.dependsOn.map(mustGet);
      const stopped = deps.find((d) => HARD_STOPS.includes(d.state));
      if (stopped) {
        store.setState(entry.id, 'blocked', blockedError(stopped), null, micros());
        blockedCount += 1;
        onProgress?.(progress());
        continue;
      }
      if (deps.some((d) => d.state !== 'sent')) continue; // waits for a dependency's next attempt
      if (options.waitForOrderItems && entry.kind === 'delivery' && deps.length > 0) {
        // Its order is sent; its items must be complete before a delivery can be made of them.
        const ready = deliveryReadiness(entry, mustGet);
        if (!ready.go) {
          const at = micros();
          if (ready.never) {
            store.setState(
              entry.id,
              'blocked',
              { kind: 'blocked', message: ready.message },
              null,
              at,
            );
            blockedCount += 1 + blockDependents(entry.id, mustGet(entry.id), at);
          } else {
            // Not attempted: stays queued (editable, cancellable); a later flush looks again.
            store.setState(
              entry.id,
              'queued',
              { kind: 'waiting', message: ready.message },
              null,
              at,
            );
          }
          onProgress?.(progress());
          continue;
        }
      }
      const doubted = isInDoubt(entry.lastError) ? entry.lastError : null;
      // An attempt the service said it was still processing is asked again with its key: the
      // service tracks the key, and answers with that attempt's outcome.
      if (doubted && !doubted.keyInProgress) {
        // An earlier attempt may be on the service: resent only with a key the service honours.
        const honoured = await keyHonoured();
        if (signal?.aborted) break;
        if (honoured !== 'yes') {
          if (honoured === 'no') await settle(entry, doubted);
          else waitInDoubt(entry, doubted, Math.max(1, entry.attempts));
          onProgress?.(progress());
          continue;
        }
      }
      const leftAt = micros();
      if (!store.markSending(entry.id, leftAt)) continue;
      const attempt = { ...entry, attempts: entry.attempts + 1 };

      let leaving = false;
      let response: unknown;
      try {
        response = await sendOne(client, attempt, signal, () => {
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
        // In doubt: this attempt may have created it, or an earlier one may have and this
        // answer did not settle it (a definite answer to a resend with an honoured key does).
        const inDoubt = leaving
          ? mayHaveCreated(err) || (doubted !== null && isTransient(err))
          : doubted !== null;
        const error: StoredError = inDoubt
          ? {
              ...storedError(err),
              inDoubt: true,
              attemptedAt: leaving && mayHaveCreated(err) ? leftAt : doubted?.attemptedAt,
            }
          : storedError(err);
        if (leaving && policy !== 'ignored' && isKeyInProgress(err)) {
          // 409 "still being processed": an attempt with this key runs on the service and will
          // be the one create. Queued, in doubt, not before its Retry-After; the resend with the
          // same key gets that attempt's answer. Its dependents wait, nothing fails.
          const running: StoredError = {
            ...storedError(err),
            inDoubt: true,
            keyInProgress: true,
            attemptedAt: doubted?.attemptedAt ?? leftAt,
          };
          store.setState(
            entry.id,
            'queued',
            running,
            nextAttemptAt(attempt.attempts, err),
            micros(),
          );
          onProgress?.(progress());
          continue;
        }
        // Rate-limited: this kind's other entries wait for the Retry-After too (`heldUntil`).
        if (err instanceof EoApiError && err.status === 429)
          heldUntil.set(entry.kind, nextAttemptAt(attempt.attempts, err));
        if (err instanceof EoAbortError) {
          // The next flush decides: the same key again, or the lookup first.
          store.setState(entry.id, 'queued', inDoubt ? error : entry.lastError, null, micros());
          break;
        }
        if (isCreatedWithoutId(err)) {
          // Created for sure, id unknown: a resend would at best replay the same body.
          await settle(attempt, error, err.body);
        } else if (inDoubt) {
          // Honoured: sent again later with the same key. Unknown (the read that asks failed):
          // decided later. Not honoured: looked for now, else left to the user.
          if ((await keyHonoured()) === 'no') await settle(attempt, error);
          else waitInDoubt(entry, error, attempt.attempts, err);
        } else if (isTransient(err)) {
          store.setState(entry.id, 'queued', error, nextAttemptAt(attempt.attempts, err), micros());
        } else {
          const at = micros();
          store.setState(entry.id, 'failed', error, null, at);
          failedCount += 1;
          blockedCount += blockDependents(entry.id, mustGet(entry.id), at);
        }
        onProgress?.(progress());
        continue;
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
        await settle(attempt, error, response);
        onProgress?.(progress());
        continue;
      }
      await recordSent(entry, response);
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

    enqueueAll(creates) {
      const ids = store.transaction(() =>
        creates.map(({ kind, input }, k) => {
          const copy = JSON.parse(JSON.stringify(input ?? null)) as unknown;
          let dependsOn: string[];
          try {
            dependsOn = validate(kind, copy, Number.POSITIVE_INFINITY);
          } catch (e) {
            if (!(e instanceof OutboxInputError)) throw e;
            const at = (p: string) => (p ? `${k}.${p}` : String(k));
            throw new OutboxInputError(
              `Nothing queued: create ${k + 1} of ${creates.length} is invalid`,
              e.details.map((d) => ({ ...d, path: at(d.path) })),
            );
          }
          const id = randomUUID();
          store.insert(id, kind, copy, dependsOn, micros());
          return id;
        }),
      );
      return ids.map(mustGet);
    },

    flush(opts = {}) {
      const client = opts.client ?? options.client;
      if (!client) return Promise.reject(new TypeError('outbox flush: no client to send through'));
      // One flush at a time: a second caller shares the running one.
      running ??= runFlush(client, opts).finally(() => {
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
      const dependsOn = validate(entry.kind, copy, entry.seq, id);
      store.transaction(() => {
        const at = micros();
        store.setInput(id, copy, dependsOn, at);
        unblockDependents(id, at);
      });
      return mustGet(id);
    },

    retry(id) {
      const entry = mustGet(id);
      if (entry.state === 'unconfirmed') {
        // Retry is the everyday button; an unconfirmed entry is resent only when asked by name.
        throw new OutboxStateError(
          `Entry ${id} may already be on the service: confirm it, resend it, or cancel it`,
        );
      }
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
      if (entry.state === 'handed_over') {
        throw new OutboxStateError(
          `Entry ${id} was handed over to another laptop, which may send it: take it back first`,
        );
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

    confirm(id, remoteId) {
      const entry = mustUnconfirmed(id, 'confirmed');
      const given = remoteId?.trim() || entry.lastError?.candidateId;
      if (!given) {
        throw new OutboxStateError(
          `Entry ${id}: give the id the service gave it (no candidate was found)`,
        );
      }
      store.transaction(() => {
        const at = micros();
        store.markSent(id, entry.response, given, at);
        if (entry.kind === 'order' && !hasOrderItems(entry.response)) {
          // Deliveries name its items (`local:<id>#n`), which only its answer lists.
          for (const dep of store.dependents(id)) {
            if (dep.state !== 'blocked') continue;
            store.setState(dep.id, 'blocked', orderItemsUnknown(entry), null, at);
          }
        } else unblockDependents(id, at);
      });
      return mustGet(id);
    },

    resend(id) {
      mustUnconfirmed(id, 'sent again');
      store.transaction(() => {
        const at = micros();
        // The user's say: no longer in doubt, so the next flush sends it (same key).
        store.setState(id, 'queued', null, null, at);
        unblockDependents(id, at);
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
    handOver: (opts = {}) => handover.handOver(opts),
    previewHandover: (opts = {}) => handover.previewHandover(opts),
    takeBack: (id) => handover.takeBack(id),
    async receive(entries) {
      const { sentNow, ...receipt } = handover.receive(entries);
      for (const entry of sentNow) {
        try {
          await mirror?.recordCreated(entry.kind, entry.response);
        } catch (err) {
          options.onMirrorError?.(err, entry);
        }
      }
      return receipt;
    },
  };
}
