/**
 * The outbox rows on disk: prepared statements and row <-> entry conversion. Every state change
 * is its own committed transaction, so what the outbox tells its caller is what a crash leaves.
 */
import { OUTBOX_STATES, type OutboxState } from '@eo/domain';
import type Database from 'better-sqlite3';
import { OutboxStateError, type StoredError } from './errors';
import type { OutboxKind } from './kinds';

export { OUTBOX_STATES, type OutboxState };

export interface OutboxEntry {
  readonly id: string;
  readonly seq: number;
  readonly kind: OutboxKind;
  readonly input: Record<string, unknown>;
  readonly state: OutboxState;
  readonly dependsOn: string[];
  readonly attempts: number;
  /** Microseconds since the epoch; null: due now. */
  readonly nextAttemptAt: number | null;
  readonly lastError: StoredError | null;
  readonly response: unknown;
  readonly remoteId: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly sentAt: number | null;
  /** When it was written to a handover file for another laptop (µs); null otherwise. */
  readonly handedOverAt: number | null;
  /** When it came from another laptop's handover file (µs); null for this laptop's own. */
  readonly receivedAt: number | null;
}

interface Row {
  id: string;
  seq: number;
  kind: string;
  input: string;
  state: string;
  depends_on: string;
  attempts: number;
  next_attempt_at: number | null;
  last_error: string | null;
  response: string | null;
  remote_id: string | null;
  created_at: number;
  updated_at: number;
  sent_at: number | null;
  handed_over_at: number | null;
  received_at: number | null;
}

function toEntry(r: Row): OutboxEntry {
  return {
    id: r.id,
    seq: r.seq,
    kind: r.kind as OutboxKind,
    input: JSON.parse(r.input) as Record<string, unknown>,
    state: r.state as OutboxState,
    dependsOn: JSON.parse(r.depends_on) as string[],
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    lastError: r.last_error === null ? null : (JSON.parse(r.last_error) as StoredError),
    response: r.response === null ? null : (JSON.parse(r.response) as unknown),
    remoteId: r.remote_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    sentAt: r.sent_at,
    handedOverAt: r.handed_over_at,
    receivedAt: r.received_at,
  };
}

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

export type OutboxStore = ReturnType<typeof createOutboxStore>;

export function createOutboxStore(db: Database.Database) {
  const byId = db.prepare<[string], Row>('SELECT * FROM outbox WHERE id = ?');
  const insert = db.prepare(
    `INSERT INTO outbox (id, seq, kind, input, state, depends_on, attempts, created_at, updated_at)
     VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM outbox), ?, ?, 'queued', ?, 0, ?, ?)`,
  );
  const nextDue = db.prepare<[number, number], Row>(
    `SELECT * FROM outbox WHERE state = 'queued' AND seq > ?
       AND (next_attempt_at IS NULL OR next_attempt_at <= ?) ORDER BY seq LIMIT 1`,
  );
  const setSending = db.prepare(
    `UPDATE outbox SET state = 'sending', attempts = attempts + 1, updated_at = ? WHERE id = ? AND state = 'queued'`,
  );
  const setSent = db.prepare(
    `UPDATE outbox SET state = 'sent', response = ?, remote_id = ?, last_error = NULL,
       next_attempt_at = NULL, sent_at = ?, updated_at = ? WHERE id = ?`,
  );
  const setState = db.prepare(
    `UPDATE outbox SET state = ?, last_error = ?, next_attempt_at = ?, updated_at = ? WHERE id = ?`,
  );
  const setInput = db.prepare(
    `UPDATE outbox SET input = ?, depends_on = ?, state = 'queued', last_error = NULL,
       next_attempt_at = NULL, updated_at = ? WHERE id = ?`,
  );
  // A row left `sending` had its request on the way (committed just before it left, at
  // updated_at): it may be on the service, so it goes back in doubt (see in-doubt.ts).
  const requeueSending = db.prepare(
    `UPDATE outbox SET state = 'queued', next_attempt_at = NULL, updated_at = ?,
       last_error = json_object('kind', 'interrupted', 'message', ?, 'inDoubt', json('true'),
         'attemptedAt', updated_at)
     WHERE state = 'sending'`,
  );
  const setUnconfirmed = db.prepare(
    `UPDATE outbox SET state = 'unconfirmed', last_error = ?, response = COALESCE(?, response),
       next_attempt_at = NULL, updated_at = ? WHERE id = ?`,
  );
  const dependents = db.prepare<[string], Row>(
    `SELECT outbox.* FROM outbox, json_each(outbox.depends_on) AS dep WHERE dep.value = ? ORDER BY seq`,
  );
  const countStates = db.prepare<[], { state: string; n: number }>(
    'SELECT state, COUNT(*) AS n FROM outbox GROUP BY state',
  );
  const countPending = db.prepare<[], { n: number }>(
    `SELECT COUNT(*) AS n FROM outbox WHERE state IN ('queued', 'sending')`,
  );
  const remoteIdTaken = db.prepare<[string, string], { id: string }>(
    `SELECT id FROM outbox WHERE kind = ? AND remote_id = ? LIMIT 1`,
  );
  // Kinds a 429 holds: a queued entry waits out the Retry-After its kind's endpoint answered.
  const rateLimited = db.prepare<[number], { kind: string; until: number }>(
    `SELECT kind, MAX(next_attempt_at) AS until FROM outbox
     WHERE state = 'queued' AND next_attempt_at > ? AND json_extract(last_error, '$.status') = 429
     GROUP BY kind`,
  );
  const handOver = db.prepare(
    `UPDATE outbox SET state = 'handed_over', handed_over_at = ?, updated_at = ?
     WHERE id = ? AND state = 'queued'`,
  );
  const takeBack = db.prepare(
    `UPDATE outbox SET state = 'queued', handed_over_at = NULL, next_attempt_at = NULL,
       updated_at = ? WHERE id = ? AND state = 'handed_over'`,
  );
  const insertReceived = db.prepare(
    `INSERT INTO outbox (id, seq, kind, input, state, depends_on, attempts, last_error, response,
       remote_id, created_at, updated_at, sent_at, received_at)
     VALUES (@id, (SELECT COALESCE(MAX(seq), 0) + 1 FROM outbox), @kind, @input, @state,
       @dependsOn, @attempts, @lastError, @response, @remoteId, @createdAt, @at, @sentAt, @at)`,
  );

  return {
    get(id: string): OutboxEntry | undefined {
      const r = byId.get(id);
      return r && toEntry(r);
    },
    /** The entry, or an `OutboxStateError` for an id the outbox does not hold. */
    mustGet(id: string): OutboxEntry {
      const r = byId.get(id);
      if (!r) throw new OutboxStateError(`No outbox entry ${id}`);
      return toEntry(r);
    },
    insert(id: string, kind: OutboxKind, input: unknown, dependsOn: string[], at: number): void {
      insert.run(id, kind, JSON.stringify(input), JSON.stringify(dependsOn), at, at);
    },
    nextDue(afterSeq: number, at: number): OutboxEntry | undefined {
      const r = nextDue.get(afterSeq, at);
      return r && toEntry(r);
    },
    /** queued -> sending, committed before the request leaves. False if the entry moved meanwhile. */
    markSending(id: string, at: number): boolean {
      return setSending.run(at, id).changes === 1;
    },
    markSent(id: string, response: unknown, remoteId: string | null, at: number): void {
      setSent.run(JSON.stringify(response), remoteId, at, at, id);
    },
    setState(
      id: string,
      state: OutboxState,
      error: StoredError | null,
      nextAttemptAt: number | null,
      at: number,
    ): void {
      setState.run(state, json(error), nextAttemptAt, at, id);
    },
    setInput(id: string, input: unknown, dependsOn: string[], at: number): void {
      setInput.run(JSON.stringify(input), JSON.stringify(dependsOn), at, id);
    },
    /** Entries a crash left `sending` go back to the queue, in doubt (never resent blindly). */
    requeueSending(at: number): number {
      return requeueSending.run(at, 'the app stopped while this was being sent').changes;
    },
    /** In doubt and undecided: waits for the user; `response`: an unusable 2xx answer, kept. */
    markUnconfirmed(id: string, error: StoredError, response: unknown, at: number): void {
      setUnconfirmed.run(
        json(error),
        response === undefined ? null : JSON.stringify(response),
        at,
        id,
      );
    },
    dependents(id: string): OutboxEntry[] {
      return dependents.all(id).map(toEntry);
    },
    list(states?: readonly OutboxState[]): OutboxEntry[] {
      const rows = states?.length
        ? db
            .prepare<string[], Row>(
              `SELECT * FROM outbox WHERE state IN (${states.map(() => '?').join(',')}) ORDER BY seq`,
            )
            .all(...states)
        : db.prepare<[], Row>('SELECT * FROM outbox ORDER BY seq').all();
      return rows.map(toEntry);
    },
    counts(): Record<OutboxState, number> {
      const out = Object.fromEntries(OUTBOX_STATES.map((s) => [s, 0])) as Record<
        OutboxState,
        number
      >;
      for (const { state, n } of countStates.all()) out[state as OutboxState] = n;
      return out;
    },
    /** Queued or sending. */
    pending(): number {
      return countPending.get()!.n;
    },
    isRemoteIdTaken(kind: OutboxKind, remoteId: string): boolean {
      return remoteIdTaken.get(kind, remoteId) !== undefined;
    },
    /**
     * Each kind whose endpoint answered 429 to an entry still queued, and until when (µs, the
     * latest such entry's next attempt, past `at`): stored with the entries, so it holds across
     * flushes and restarts.
     */
    rateLimitedUntil(at: number): Map<OutboxKind, number> {
      return new Map(rateLimited.all(at).map((r) => [r.kind as OutboxKind, r.until]));
    },
    /** queued -> handed_over (written to a file for another laptop); false if it moved. */
    markHandedOver(id: string, at: number): boolean {
      return handOver.run(at, at, id).changes === 1;
    },
    /** handed_over -> queued: the other laptop never had it (the user's word). */
    takeBack(id: string, at: number): boolean {
      return takeBack.run(at, id).changes === 1;
    },
    /** An entry from another laptop's handover file, under its own id (its key). */
    insertReceived(e: {
      id: string;
      kind: OutboxKind;
      input: unknown;
      state: 'queued' | 'sent';
      dependsOn: readonly string[];
      attempts: number;
      lastError: StoredError | null;
      response: unknown;
      remoteId: string | null;
      createdAt: number;
      at: number;
    }): void {
      insertReceived.run({
        id: e.id,
        kind: e.kind,
        input: JSON.stringify(e.input),
        state: e.state,
        dependsOn: JSON.stringify(e.dependsOn),
        attempts: e.attempts,
        lastError: json(e.lastError),
        response: e.response === undefined ? null : JSON.stringify(e.response),
        remoteId: e.remoteId,
        createdAt: e.createdAt,
        at: e.at,
        sentAt: e.state === 'sent' ? e.at : null,
      });
    },
    transaction<T>(fn: () => T): T {
      return db.transaction(fn).immediate();
    },
  };
}
