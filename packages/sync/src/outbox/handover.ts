/**
 * Queued work handed over to another laptop (README.md, "Handing over queued work"). Each entry
 * keeps its id, which is its Idempotency-Key on both laptops, so whichever sends it sends the
 * same create; an entry in doubt goes with its doubt, so the receiving laptop looks for it
 * (`recovery.ts`) before it sends, by the outbox's own rules.
 *
 * - Handing over: the queued entries asked for (default all) go with the queued entries they
 *   refer to; the sent ones they refer to go as `sent`, their ids resolving the references. On
 *   this laptop they become `handed_over`: never sent from here.
 * - Receiving: unknown entries are queued under their own ids (checked as `enqueue` checks them;
 *   one refused and none is taken); a `sent` entry that is one of ours `handed_over` is a
 *   receipt: it is `sent` here too, found by its key; entries already here are left as they are.
 * - Found sent: at each flush a handed-over order, AOI or custom index is looked for on the
 *   service (the lookup of `recovery.ts`), and `sent` once found; the others (no list endpoint)
 *   wait for the other laptop's receipt.
 */
import { EoClientError, type EoClient } from '@eo/api-client';
import type { HandoverEntry } from '@eo/domain';
import { OutboxInputError, OutboxStateError, type FieldProblem, type StoredError } from './errors';
import { isInDoubt } from './in-doubt';
import type { OutboxKind } from './kinds';
import { findCreated, LOOKUP_KINDS } from './recovery';
import type { OutboxEntry, OutboxStore } from './store';

/** A queued paid order's price when it was queued (kept by the caller, e.g. the desktop). */
export type PriceWhenQueued = { readonly total: number; readonly quotedAt: string } | null;

/** Which queued work a handover takes (default all queued), and the paid orders' prices. */
export interface HandoverOptions {
  readonly ids?: readonly string[] | undefined;
  readonly priceOf?: ((id: string) => PriceWhenQueued) | undefined;
}

export interface HandoverExport {
  /** Handed over now (`handed_over` here). */
  readonly handedOver: readonly OutboxEntry[];
  /** The file's entries: those, the sent ones they refer to, and receipts of received ones. */
  readonly entries: readonly HandoverEntry[];
}

export interface HandoverReceipt {
  /** Queued here now, to be sent by this laptop. */
  readonly queued: readonly string[];
  /** Ours, handed over, and sent by the other laptop: `sent` here now. */
  readonly confirmed: readonly string[];
  /** Already here: left as they were. */
  readonly kept: readonly string[];
  /** Paid orders among the queued: a person confirms each at a fresh quote before it goes. */
  readonly orders: readonly string[];
}

/** Looks for a handed-over entry between these intervals (the other laptop may take days). */
const LOOK_BASE_US = 60e6;
const LOOK_MAX_US = 3600e6;

function toEntry(e: OutboxEntry, price: PriceWhenQueued | undefined): HandoverEntry {
  const doubt = e.state === 'queued' && isInDoubt(e.lastError) ? e.lastError! : null;
  return {
    id: e.id,
    kind: e.kind,
    state: e.state === 'sent' ? 'sent' : 'queued',
    input: e.input,
    dependsOn: e.state === 'sent' ? [] : e.dependsOn,
    createdAt: e.createdAt,
    attempts: e.attempts,
    inDoubt: doubt ? { message: doubt.message, attemptedAt: doubt.attemptedAt ?? null } : null,
    remoteId: e.state === 'sent' ? e.remoteId : null,
    ...(e.state === 'sent' ? { response: e.response } : {}),
    ...(price !== undefined ? { priceWhenQueued: price } : {}),
  };
}

export function makeHandover(deps: {
  readonly store: OutboxStore;
  readonly micros: () => number;
  /**
   * The outbox's checks of an input (`enqueue`'s), returning the entries it refers to;
   * `inDoubt`: not the check for the same order queued or placed (it may be this very one).
   */
  readonly validate: (kind: OutboxKind, input: unknown, inDoubt: boolean) => string[];
  readonly paidKinds: readonly OutboxKind[];
}) {
  const { store, micros } = deps;
  const mustGet = (id: string) => store.mustGet(id);

  /** The queued entries of `ids` (default all queued) with the queued entries they need. */
  function chosen(ids: readonly string[] | undefined): {
    queued: OutboxEntry[];
    sent: OutboxEntry[];
  } {
    const queued = new Map<string, OutboxEntry>();
    const sent = new Map<string, OutboxEntry>();
    const take = (e: OutboxEntry, asked: boolean): boolean => {
      if (queued.has(e.id)) return true;
      if (e.state !== 'queued') {
        if (asked)
          throw new OutboxStateError(
            `Entry ${e.id} is ${e.state}; only queued work is handed over`,
          );
        return false;
      }
      const deps = e.dependsOn.map(mustGet);
      for (const d of deps) {
        if (d.state === 'sent') sent.set(d.id, d);
        else if (!take(d, false)) {
          if (asked)
            throw new OutboxStateError(
              `Entry ${e.id} depends on ${d.kind} ${d.id}, which is ${d.state}: it cannot be handed over`,
            );
          return false;
        }
      }
      queued.set(e.id, e);
      return true;
    };
    const candidates = ids ? ids.map(mustGet) : store.list(['queued']);
    for (const e of candidates) take(e, ids !== undefined);
    return {
      queued: [...queued.values()].sort((a, b) => a.seq - b.seq),
      sent: [...sent.values()].sort((a, b) => a.seq - b.seq),
    };
  }

  /** The file's entries for these options, and the queued entries they hand over. */
  function fileOf(options: HandoverOptions): { queued: OutboxEntry[]; entries: HandoverEntry[] } {
    const { queued, sent } = chosen(options.ids);
    // Receipts: what this laptop sent of the work it received, for the laptop it came from.
    const context = new Set(sent.map((e) => e.id));
    const receipts = store
      .list(['sent'])
      .filter((e) => e.receivedAt !== null && !context.has(e.id));
    const price = (e: OutboxEntry) =>
      deps.paidKinds.includes(e.kind) ? (options.priceOf?.(e.id) ?? null) : undefined;
    return {
      queued,
      entries: [
        ...sent.map((e) => toEntry(e, undefined)),
        ...receipts.map((e) => toEntry(e, undefined)),
        ...queued.map((e) => toEntry(e, price(e))),
      ],
    };
  }

  return {
    /** What `handOver` would hand over and write, nothing marked (shown before writing). */
    previewHandover(options: HandoverOptions): HandoverExport {
      const { queued, entries } = fileOf(options);
      return { handedOver: queued, entries };
    },

    /**
     * Marks the chosen entries `handed_over` and returns the file's entries. The caller writes
     * the file, and takes them back (`takeBack`) if it cannot.
     */
    handOver(options: HandoverOptions): HandoverExport {
      store.requeueSending(micros());
      return store.transaction(() => {
        const { queued, entries } = fileOf(options);
        const at = micros();
        for (const e of queued) store.markHandedOver(e.id, at);
        return { handedOver: queued.map((e) => mustGet(e.id)), entries };
      });
    },

    /** A handed-over entry back to the queue: the other laptop never had it (the user's word). */
    takeBack(id: string): OutboxEntry {
      const e = mustGet(id);
      if (!store.takeBack(id, micros()))
        throw new OutboxStateError(
          `Entry ${id} is ${e.state}; only handed-over work can be taken back`,
        );
      return mustGet(id);
    },

    /**
     * Takes in another laptop's entries (in the file's order), all or nothing. Returns what
     * happened to each, and the receipts' entries for the caller to write into the mirror.
     */
    receive(
      entries: readonly HandoverEntry[],
    ): HandoverReceipt & { readonly sentNow: OutboxEntry[] } {
      const queued: string[] = [];
      const confirmed: string[] = [];
      const kept: string[] = [];
      const needed = new Set(entries.flatMap((e) => (e.state === 'queued' ? e.dependsOn : [])));
      store.transaction(() => {
        const at = micros();
        entries.forEach((e, k) => {
          const here = store.get(e.id);
          if (here) {
            if (here.kind !== e.kind)
              throw new OutboxInputError('Nothing taken', [
                { path: `entries.${k}.kind`, message: `entry ${e.id} is a ${here.kind} here` },
              ]);
            if (here.state === 'handed_over' && e.state === 'sent') {
              store.markSent(e.id, e.response ?? null, e.remoteId, at);
              confirmed.push(e.id);
            } else kept.push(e.id);
            return;
          }
          // A receipt of somebody else's entry: nothing here needs it.
          if (e.state === 'sent' && !needed.has(e.id)) return;
          if (e.state === 'queued') checked(e, k);
          const lastError: StoredError | null = e.inDoubt
            ? {
                kind: 'handover',
                message: e.inDoubt.message,
                inDoubt: true,
                ...(e.inDoubt.attemptedAt !== null ? { attemptedAt: e.inDoubt.attemptedAt } : {}),
              }
            : null;
          store.insertReceived({ ...e, lastError, response: e.response, at });
          if (e.state === 'queued') queued.push(e.id);
        });
      });
      return {
        queued,
        confirmed,
        kept,
        orders: queued.filter((id) => deps.paidKinds.includes(mustGet(id).kind)),
        sentNow: confirmed.map(mustGet),
      };
    },
  };

  /** `enqueue`'s checks, with field paths inside the file; references to entries before it. */
  function checked(e: HandoverEntry, k: number): void {
    try {
      const refers = deps.validate(e.kind, e.input, e.inDoubt !== null);
      const same =
        refers.length === e.dependsOn.length && refers.every((d) => e.dependsOn.includes(d));
      if (!same)
        throw new OutboxInputError('Nothing taken', [
          { path: 'dependsOn', message: 'does not list the entries its input refers to' },
        ]);
    } catch (err) {
      if (!(err instanceof OutboxInputError)) throw err;
      const at = (p: string) => `entries.${k}.input${p ? `.${p}` : ''}`;
      throw new OutboxInputError(
        `Nothing taken: entry ${k + 1} (${e.kind} ${e.id}) is refused`,
        err.details.map((d): FieldProblem => ({ ...d, path: at(d.path) })),
      );
    }
  }
}

/**
 * At a flush: handed-over orders, AOIs and custom indices the other laptop has sent are found
 * on the service (the outbox's lookup) and `record`ed as sent; each is looked for again after a
 * growing interval. A lookup that cannot run (offline) ends this round quietly.
 */
export async function findHandedOver(deps: {
  readonly store: OutboxStore;
  readonly client: EoClient;
  readonly micros: () => number;
  readonly due: number;
  readonly signal?: AbortSignal | undefined;
  readonly record: (entry: OutboxEntry, found: unknown) => Promise<void>;
}): Promise<number> {
  const { store } = deps;
  let found = 0;
  for (const entry of store.list(['handed_over'])) {
    if (deps.signal?.aborted) break;
    if (!LOOKUP_KINDS.includes(entry.kind)) continue;
    if (entry.nextAttemptAt !== null && entry.nextAttemptAt > deps.due) continue;
    let created: unknown;
    try {
      created = await findCreated(
        deps.client,
        entry.kind,
        entry.input,
        (remoteId) => store.isRemoteIdTaken(entry.kind, remoteId),
        deps.signal,
      );
    } catch (e) {
      if (e instanceof EoClientError) return found;
      throw e;
    }
    if (created === undefined) {
      // Twice the last interval (the time from the last look to its planned next one).
      const last = entry.nextAttemptAt === null ? 0 : entry.nextAttemptAt - entry.updatedAt;
      const wait = Math.min(LOOK_MAX_US, Math.max(LOOK_BASE_US, 2 * last));
      const now = deps.micros();
      store.setState(entry.id, 'handed_over', entry.lastError, now + wait, now);
      continue;
    }
    await deps.record(entry, created);
    found++;
  }
  return found;
}
