/** `sync_state` rows: where each resource's pass stands, read and written with raw statements. */
import type Database from 'better-sqlite3';
import type { ResourceName } from '../mirror/writers';
import type { SyncErrorInfo } from './errors';

export interface ResourceStatus {
  readonly resource: ResourceName;
  /** The pass in progress, or the last one. */
  readonly passId: string | null;
  /** What the pass pages through (catalog searches as JSON; empty for other resources). */
  readonly plan: string;
  /** Which list of the resource the next page comes from (catalog search, AOI). */
  readonly part: number;
  /** Offset of the next page within that list. */
  readonly checkpoint: number;
  readonly startedAtUs: number | null;
  /** NULL while a pass is in progress or was interrupted (the next sync resumes it). */
  readonly finishedAtUs: number | null;
  readonly lastCompleteAtUs: number | null;
  readonly lastError: SyncErrorInfo | null;
  /** Records stored by the pass so far. */
  readonly seen: number;
  /** The service's total (for the lists paged so far, plus the current one), when known. */
  readonly total: number | null;
  /** Rows removed by the last sweep. */
  readonly removed: number;
}

interface Row {
  resource: ResourceName;
  pass_id: string | null;
  plan: string;
  part: number;
  checkpoint: number;
  started_at_us: number | null;
  finished_at_us: number | null;
  last_complete_at_us: number | null;
  last_error_json: string | null;
  seen: number;
  total: number | null;
  removed: number;
}

function fromRow(r: Row): ResourceStatus {
  return {
    resource: r.resource,
    passId: r.pass_id,
    plan: r.plan,
    part: r.part,
    checkpoint: r.checkpoint,
    startedAtUs: r.started_at_us,
    finishedAtUs: r.finished_at_us,
    lastCompleteAtUs: r.last_complete_at_us,
    lastError: r.last_error_json === null ? null : (JSON.parse(r.last_error_json) as SyncErrorInfo),
    seen: r.seen,
    total: r.total,
    removed: r.removed,
  };
}

export function makeSyncStateStore(sqlite: Database.Database) {
  const get = sqlite.prepare('SELECT * FROM sync_state WHERE resource = ?');
  const all = sqlite.prepare('SELECT * FROM sync_state ORDER BY resource');
  const start = sqlite.prepare(
    `INSERT INTO sync_state (resource, pass_id, plan, part, checkpoint, started_at_us, finished_at_us, seen, total)
     VALUES (@resource, @passId, @plan, 0, 0, @now, NULL, 0, NULL)
     ON CONFLICT(resource) DO UPDATE SET pass_id = @passId, plan = @plan, part = 0, checkpoint = 0,
       started_at_us = @now, finished_at_us = NULL, seen = 0, total = NULL`,
  );
  const checkpoint = sqlite.prepare(
    `UPDATE sync_state SET part = @part, checkpoint = @checkpoint, seen = @seen, total = @total
     WHERE resource = @resource`,
  );
  const finish = sqlite.prepare(
    `UPDATE sync_state SET finished_at_us = @now, last_complete_at_us = @now,
       last_error_json = NULL, removed = @removed WHERE resource = @resource`,
  );
  const fail = sqlite.prepare('UPDATE sync_state SET last_error_json = ? WHERE resource = ?');
  return {
    get: (resource: ResourceName): ResourceStatus | undefined => {
      const r = get.get(resource) as Row | undefined;
      return r && fromRow(r);
    },
    all: (): ResourceStatus[] => (all.all() as Row[]).map(fromRow),
    start(resource: ResourceName, passId: string, plan: string, now: number) {
      start.run({ resource, passId, plan, now });
    },
    checkpoint(
      resource: ResourceName,
      at: { part: number; checkpoint: number; seen: number; total: number | null },
    ) {
      checkpoint.run({ resource, ...at });
    },
    finish(resource: ResourceName, removed: number, now: number) {
      finish.run({ resource, removed, now });
    },
    fail(resource: ResourceName, error: SyncErrorInfo) {
      fail.run(JSON.stringify(error), resource);
    },
  };
}
