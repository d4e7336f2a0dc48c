/** `sync_state` rows: where each resource's pass stands, read and written with raw statements. */
import type Database from 'better-sqlite3';
import type { SqlRow } from '@eo/catalog-store';
import type { syncIncremental, syncState } from '../mirror/schema';
import type { ResourceName } from '../mirror/writers';
import type { PassMode } from './incremental';
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
  /** Records received by the pass so far (skipped ones included: see `skipped`). */
  readonly seen: number;
  /** The service's total (for the lists paged so far, plus the current one), when known. */
  readonly total: number | null;
  /** Rows removed by the last sweep. */
  readonly removed: number;
  /**
   * The last finished pass ended with fewer records than the service's total: it swept nothing
   * and the next sync starts a new pass.
   */
  readonly incomplete: boolean;
  /**
   * Why the last pass is incomplete, in words (which list, what the service did, that nothing
   * was removed); null when it is not. The first of its `list` notes (drift.ts).
   */
  readonly incompleteReason: string | null;
  /** Records of this pass that differ from the spec (samples: `eo status --drift`). */
  readonly drift: number;
  /** Records of this pass that were not stored (no usable id). */
  readonly skipped: number;
  /** Mirrored records whose indexed fields could not all be read (filters on them never match). */
  readonly notIndexed: number;
  /**
   * Whether the pass is full (pages everything, sweeps deletions) or incremental (only what
   * changed since the last complete pass; sweeps nothing): pull/incremental.ts.
   */
  readonly passMode: 'full' | 'incremental';
  /** When the last full pass completed. */
  readonly lastFullAtUs: number | null;
  /** The service refused the change filter (`{ status, message }`): full passes only. */
  readonly incrementalRejected: { status: number; message: string } | null;
}

/**
 * A `sync_state` row, with the resource's unindexed count and its `sync_incremental` columns
 * (a LEFT JOIN: NULL while the resource has no such row).
 */
type Row = Omit<SqlRow<typeof syncState>, 'resource'> & {
  resource: ResourceName;
  not_indexed: number;
  incomplete_reason: string | null;
  pass_mode: PassMode | null;
} & {
  [K in 'last_full_at_us' | 'unsupported_json']: SqlRow<typeof syncIncremental>[K] | null;
};

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
    incomplete: r.incomplete === 1,
    incompleteReason: r.incomplete === 1 ? r.incomplete_reason : null,
    drift: r.drift,
    skipped: r.skipped,
    notIndexed: r.not_indexed,
    passMode: r.pass_mode ?? 'full',
    lastFullAtUs: r.last_full_at_us,
    incrementalRejected:
      r.unsupported_json === null
        ? null
        : (JSON.parse(r.unsupported_json) as { status: number; message: string }),
  };
}

export function makeSyncStateStore(sqlite: Database.Database) {
  const select = `SELECT s.*, (SELECT count(*) FROM mirror_unindexed u WHERE u.resource = s.resource)
    AS not_indexed, (SELECT d.message FROM sync_drift d WHERE d.resource = s.resource
      AND d.pass_id = s.pass_id AND d.source = 'list' ORDER BY d.seq LIMIT 1) AS incomplete_reason,
    i.pass_mode, i.last_full_at_us, i.unsupported_json
    FROM sync_state s LEFT JOIN sync_incremental i ON i.resource = s.resource`;
  const get = sqlite.prepare(`${select} WHERE s.resource = ?`);
  const all = sqlite.prepare(`${select} ORDER BY s.resource`);
  const start = sqlite.prepare(
    `INSERT INTO sync_state (resource, pass_id, plan, part, checkpoint, started_at_us, finished_at_us, seen, total)
     VALUES (@resource, @passId, @plan, 0, 0, @now, NULL, 0, NULL)
     ON CONFLICT(resource) DO UPDATE SET pass_id = @passId, plan = @plan, part = 0, checkpoint = 0,
       started_at_us = @now, finished_at_us = NULL, seen = 0, total = NULL, drift = 0, skipped = 0`,
  );
  const checkpoint = sqlite.prepare(
    `UPDATE sync_state SET part = @part, checkpoint = @checkpoint, seen = @seen, total = @total,
       drift = drift + @drift, skipped = skipped + @skipped
     WHERE resource = @resource`,
  );
  const finish = sqlite.prepare(
    `UPDATE sync_state SET finished_at_us = @now, last_complete_at_us = @now,
       last_error_json = NULL, removed = @removed, incomplete = 0 WHERE resource = @resource`,
  );
  const finishIncomplete = sqlite.prepare(
    `UPDATE sync_state SET finished_at_us = @now, last_error_json = NULL, removed = 0,
       incomplete = 1 WHERE resource = @resource`,
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
      counts: { drift: number; skipped: number } = { drift: 0, skipped: 0 },
    ) {
      checkpoint.run({ resource, ...at, ...counts });
    },
    finish(resource: ResourceName, removed: number, now: number) {
      finish.run({ resource, removed, now });
    },
    /** The pass ended short of the service's total: finished (not resumed), not swept. */
    finishIncomplete(resource: ResourceName, now: number) {
      finishIncomplete.run({ resource, now });
    },
    fail(resource: ResourceName, error: SyncErrorInfo) {
      fail.run(JSON.stringify(error), resource);
    },
  };
}
