/**
 * The background worker: runs persisted steps (`work_items`) when they are due.
 *
 * Each step runs in one transaction that also deletes its row and inserts the steps it
 * schedules, so after a crash a step has either happened completely (and its successors are
 * queued) or not at all (and runs again): nothing is lost or done twice. A failing step is
 * rolled back and retried with backoff, up to MAX_ATTEMPTS. Then the worker gives up: every
 * step kind registers what giving up means for its resource (its final failed status with a
 * reason), run in one transaction with the removal of the step, so no resource is left in a
 * state that clients follow forever.
 */
import type Database from 'better-sqlite3';
import type { SqlRow } from '@eo/catalog-store';
import type { workItems } from './schema';

export interface StepTools {
  /** Queue another step (inside the current transaction). */
  schedule(kind: string, refId: string, delayMs?: number): void;
  /** The configured delay between steps. */
  readonly stepDelayMs: number;
  /** 1 for the first try. */
  readonly attempt: number;
}
export type StepHandler = (refId: string, tools: StepTools) => void;
/**
 * Called once when a step failed MAX_ATTEMPTS times: sets the resource's final failed status
 * with `reason` (said to clients: no paths or internals). Runs in the step's removal transaction.
 */
export type GiveUpHandler = (refId: string, reason: string, tools: StepTools) => void;

export const MAX_ATTEMPTS = 5;

/** What a client may read about an internal failure: its kind, never its message or paths. */
export function giveUpReason(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  const what =
    typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code)
      ? code
      : err instanceof Error && /^[A-Za-z]{1,40}$/.test(err.name)
        ? err.name
        : 'internal error';
  return `the service gave up after ${MAX_ATTEMPTS} attempts (${what})`;
}

type Row = Pick<SqlRow<typeof workItems>, 'id' | 'kind' | 'ref_id' | 'attempts'>;

export class Worker {
  private readonly handlers = new Map<string, { run: StepHandler; giveUp: GiveUpHandler }>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private readonly insert;
  private readonly due;
  private readonly remove;
  private readonly fail;
  private readonly count;

  constructor(
    private readonly sqlite: Database.Database,
    private readonly opts: {
      stepDelayMs: number;
      tickMs: number;
      nowMs: () => number;
      log?: (msg: string, err?: unknown) => void;
    },
  ) {
    this.insert = sqlite.prepare(
      'INSERT INTO work_items (kind, ref_id, due_at, attempts, created_at) VALUES (?, ?, ?, 0, ?)',
    );
    this.due = sqlite.prepare<[number, number], Row>(
      'SELECT id, kind, ref_id, attempts FROM work_items WHERE due_at <= ? ORDER BY due_at, id LIMIT ?',
    );
    this.remove = sqlite.prepare('DELETE FROM work_items WHERE id = ?');
    this.fail = sqlite.prepare(
      'UPDATE work_items SET attempts = attempts + 1, last_error = ?, due_at = ? WHERE id = ?',
    );
    this.count = sqlite.prepare<[], { n: number }>('SELECT count(*) AS n FROM work_items');
  }

  register(kind: string, handler: StepHandler, giveUp: GiveUpHandler): void {
    if (this.handlers.has(kind)) throw new Error(`step ${kind} registered twice`);
    this.handlers.set(kind, { run: handler, giveUp });
  }

  /** Queue a step. Call it inside the transaction that makes the change needing it. */
  schedule(kind: string, refId: string, delayMs = this.opts.stepDelayMs): void {
    if (!this.handlers.has(kind)) throw new Error(`no handler for step ${kind}`);
    const now = this.opts.nowMs();
    this.insert.run(kind, refId, now + delayMs, now);
  }

  pending(): number {
    return this.count.get()!.n;
  }

  /** Run the steps due now (or all queued steps when `ignoreDueTime`); returns how many ran. */
  runDue(opts: { limit?: number; ignoreDueTime?: boolean } = {}): number {
    const rows = this.due.all(
      opts.ignoreDueTime ? Number.MAX_SAFE_INTEGER : this.opts.nowMs(),
      opts.limit ?? 200,
    );
    let ran = 0;
    for (const row of rows) {
      const handler = this.handlers.get(row.kind);
      if (!handler) {
        this.fail.run(`no handler for ${row.kind}`, this.opts.nowMs() + 60_000, row.id);
        continue;
      }
      const tools: StepTools = {
        schedule: (kind, refId, delayMs) => this.schedule(kind, refId, delayMs),
        stepDelayMs: this.opts.stepDelayMs,
        attempt: row.attempts + 1,
      };
      try {
        this.sqlite
          .transaction(() => {
            const gone = this.remove.run(row.id).changes === 0;
            if (gone) return; // another runner took it
            handler.run(row.ref_id, tools);
          })
          .immediate();
        ran++;
      } catch (err) {
        this.opts.log?.(`step ${row.kind} ${row.ref_id} failed (attempt ${row.attempts + 1})`, err);
        if (row.attempts + 1 >= MAX_ATTEMPTS) this.giveUp(row, handler.giveUp, tools, err);
        else
          this.fail.run(
            String(err instanceof Error ? err.message : err),
            this.opts.nowMs() + 1000 * 2 ** row.attempts,
            row.id,
          );
      }
    }
    return ran;
  }

  private giveUp(row: Row, giveUp: GiveUpHandler, tools: StepTools, err: unknown): void {
    try {
      this.sqlite
        .transaction(() => {
          if (this.remove.run(row.id).changes === 0) return;
          giveUp(row.ref_id, giveUpReason(err), tools);
        })
        .immediate();
    } catch (again) {
      // Even the failed status could not be written: drop the step rather than loop forever.
      this.opts.log?.(`giving up step ${row.kind} ${row.ref_id} failed too`, again);
      this.remove.run(row.id);
    }
  }

  /** For tests: run steps until none is queued (ignoring their due times), at most `maxSteps`. */
  drain(maxSteps = 10_000): number {
    let total = 0;
    while (total < maxSteps) {
      const ran = this.runDue({ ignoreDueTime: true, limit: Math.min(200, maxSteps - total) });
      if (ran === 0 && this.pending() === 0) break;
      if (ran === 0) break; // only failing steps left
      total += ran;
    }
    return total;
  }

  start(): void {
    if (this.running || this.opts.tickMs <= 0) return;
    this.running = true;
    const tick = () => {
      if (!this.running) return;
      try {
        this.runDue();
      } catch (err) {
        this.opts.log?.('worker tick failed', err);
      }
      this.timer = setTimeout(tick, this.opts.tickMs);
    };
    this.timer = setTimeout(tick, this.opts.tickMs);
  }

  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
