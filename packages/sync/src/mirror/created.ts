/**
 * Deliveries, jobs and visualizations this client created. The service has no list endpoint for
 * any of them, so the mirror keeps what the creates returned (and later reads of them): written
 * by whoever submits the create (the outbox), refreshed by `put` with the newer record
 * (`refreshCreated`), never swept by a pass.
 */
import { isFinalStatus, readInstant } from '@eo/domain';
import type Database from 'better-sqlite3';
import { idOf, str, type WireRecord } from './rows';

export interface CreatedRecords {
  /** Records a delivery as returned by the service (keyed by `delivery_id`). */
  putDelivery(delivery: WireRecord): void;
  /** Records a job as returned by the service (keyed by `id`). */
  putJob(job: WireRecord): void;
  /** Records a visualization as returned by the service (keyed by `id`, with its `aoi_id`). */
  putVisualization(visualization: WireRecord): void;
  /** Newest first. */
  deliveries(): WireRecord[];
  jobs(): WireRecord[];
  visualizations(): WireRecord[];
  /** Those whose status is not final yet (see `isFinalStatus`), oldest first. */
  unfinished(): { deliveries: WireRecord[]; jobs: WireRecord[]; visualizations: WireRecord[] };
}

type Table = 'mirror_deliveries' | 'mirror_jobs' | 'mirror_visualizations';

export function makeCreatedRecords(
  sqlite: Database.Database,
  nowUs: () => number = () => Date.now() * 1000,
): CreatedRecords {
  const upsert = (table: Table, extra: string[] = []) => {
    const cols = ['id', 'status', 'created_at_us', 'json', ...extra];
    return sqlite.prepare(
      `INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})
       ON CONFLICT(id) DO UPDATE SET status = excluded.status, json = excluded.json`,
    );
  };
  const list = (table: Table) =>
    sqlite.prepare(`SELECT status, json FROM ${table} ORDER BY created_at_us DESC, id`);
  const putDelivery = upsert('mirror_deliveries');
  const putJob = upsert('mirror_jobs');
  const putVisualization = upsert('mirror_visualizations', ['aoi_id']);
  const lists = {
    deliveries: list('mirror_deliveries'),
    jobs: list('mirror_jobs'),
    visualizations: list('mirror_visualizations'),
  };
  type Row = { status: string | null; json: string };
  const rows = (s: Database.Statement) =>
    (s.all() as Row[]).map((r) => JSON.parse(r.json) as WireRecord);
  const unfinished = (s: Database.Statement) =>
    (s.all() as Row[])
      .filter((r) => !isFinalStatus(r.status))
      .map((r) => JSON.parse(r.json) as WireRecord)
      .reverse();
  const put = (
    s: Database.Statement,
    id: string | null,
    r: WireRecord,
    what: string,
    ...extra: unknown[]
  ) => {
    if (id === null) throw new TypeError(`${what} without an id`);
    s.run(id, str(r, 'status'), readInstant(r.created_at) ?? nowUs(), JSON.stringify(r), ...extra);
  };
  return {
    putDelivery: (d) => put(putDelivery, idOf(d, 'delivery_id'), d, 'delivery'),
    putJob: (j) => put(putJob, idOf(j, 'id'), j, 'job'),
    putVisualization: (v) => {
      const aoiId = idOf(v, 'aoi_id');
      if (aoiId === null) throw new TypeError('visualization without an aoi_id');
      put(putVisualization, idOf(v, 'id'), v, 'visualization', aoiId);
    },
    deliveries: () => rows(lists.deliveries),
    jobs: () => rows(lists.jobs),
    visualizations: () => rows(lists.visualizations),
    unfinished: () => ({
      deliveries: unfinished(lists.deliveries),
      jobs: unfinished(lists.jobs),
      visualizations: unfinished(lists.visualizations),
    }),
  };
}
