/**
 * The outbox: creates queued on the device, sent in FIFO order (dependencies first) when the
 * service is reachable, each exactly once. See the "Outbox" section of packages/sync/README.md.
 */
import { randomUUID } from 'node:crypto';
import type { EoClient } from '@eo/api-client';
import type {
  CheckedOutboxCreate,
  HandoverEntry,
  IdempotencyPolicy,
  ServiceDialect,
} from '@eo/domain';
import type Database from 'better-sqlite3';
import { makeDeliveryReadiness } from './delivery-wait';
import { OutboxInputError } from './errors';
import { runFlush, type FlushOptions } from './flush';
import type { FlushProgress, MirrorWriter } from './flush-run';
import {
  makeHandover,
  type HandoverExport,
  type HandoverOptions,
  type HandoverReceipt,
} from './handover';
import { makeInputChecks } from './input-checks';
import { PAID_KINDS, type OutboxInput, type OutboxKind } from './kinds';
import { makeBackoff } from './send-failure';
import { makeUserDecisions } from './user-decisions';
import { createOutboxStore, type OutboxEntry, type OutboxState } from './store';

export type { FlushOptions } from './flush';
export type { FlushProgress, MirrorWriter } from './flush-run';

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

export interface Outbox {
  enqueue<K extends OutboxKind>(kind: K, input: OutboxInput<K>): OutboxEntry;
  /**
   * Several creates queued all or nothing, in one transaction: one refused and none is queued
   * (an `OutboxInputError` whose paths start with the create's index: `1.name`). Later ones
   * may refer to earlier ones (`local:<id>` of an entry queued before the call only).
   */
  enqueueAll(creates: ReadonlyArray<{ kind: OutboxKind; input: unknown }>): OutboxEntry[];
  /**
   * `enqueue` of a create its caller parsed (`OutboxCreate` of @eo/domain, e.g. the desktop's
   * dispatch at its IPC boundary): the kind's schema does not run again; the rest of the checks do.
   */
  enqueueChecked(create: CheckedOutboxCreate): OutboxEntry;
  /** `enqueueAll` of creates their caller parsed. */
  enqueueAllChecked(creates: readonly CheckedOutboxCreate[]): OutboxEntry[];
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

export function createOutbox(options: OutboxOptions): Outbox {
  const { mirror } = options;
  const store = createOutboxStore(options.db);
  const nowMs = options.now ?? Date.now;
  const micros = () => Math.round(nowMs() * 1000);
  const nextAttemptAt = makeBackoff({
    micros,
    random: options.random ?? Math.random,
    baseMs: options.retryBaseMs ?? 1_000,
    maxMs: options.retryMaxMs ?? 300_000,
  });
  const setting = options.idempotency ?? 'auto';
  let running: Promise<FlushProgress> | undefined;
  const deliveryReadiness = options.waitForOrderItems
    ? makeDeliveryReadiness(options.db)
    : undefined;
  const checkInput = makeInputChecks({ db: options.db, store, dialect: options.dialect });
  const mustGet = (id: string) => store.mustGet(id);
  const handover = makeHandover({
    store,
    micros,
    paidKinds: PAID_KINDS,
    validate: (kind, input, inDoubt) =>
      checkInput(kind, input, { seqLimit: Number.POSITIVE_INFINITY, duplicates: !inDoubt }),
  });

  const decisions = makeUserDecisions({ store, micros, checkInput });

  /**
   * Queues creates in one transaction, all or nothing. `batch`: a refusal names the create
   * (`1.name`, "create 2 of 3"). `checked`: each input is a parsed `OutboxCreate`'s, not parsed
   * again. Each input is stored as a copy (a caller may change its object afterwards).
   */
  function queue(
    creates: ReadonlyArray<{ kind: OutboxKind; input: unknown }>,
    batch: boolean,
    checked: boolean,
  ): string[] {
    return store.transaction(() =>
      creates.map(({ kind, input }, k) => {
        const copy = JSON.parse(JSON.stringify(input ?? null)) as unknown;
        let dependsOn: string[];
        try {
          dependsOn = checkInput(kind, copy, { seqLimit: Number.POSITIVE_INFINITY, checked });
        } catch (e) {
          if (!batch || !(e instanceof OutboxInputError)) throw e;
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
  }

  /** What a flush starting now works with; the idempotency setting is read once per flush. */
  function flushDeps() {
    const policy: IdempotencyPolicy = typeof setting === 'function' ? setting() : setting;
    const { onMirrorError } = options;
    return { store, micros, nextAttemptAt, policy, mirror, onMirrorError, deliveryReadiness };
  }

  return {
    enqueue: (kind, input) => mustGet(queue([{ kind, input }], false, false)[0]!),
    enqueueChecked: (create) => mustGet(queue([create], false, true)[0]!),
    enqueueAll: (creates) => queue(creates, true, false).map(mustGet),
    enqueueAllChecked: (creates) => queue(creates, true, true).map(mustGet),

    flush(opts = {}) {
      const client = opts.client ?? options.client;
      if (!client) return Promise.reject(new TypeError('outbox flush: no client to send through'));
      // One flush at a time: a second caller shares the running one.
      running ??= runFlush(flushDeps(), client, opts).finally(() => {
        running = undefined;
      });
      return running;
    },

    ...decisions,

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
