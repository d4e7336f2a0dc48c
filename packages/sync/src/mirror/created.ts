/**
 * Deliveries and jobs this client created. The service has no list endpoint for either, so the
 * mirror keeps what the creates returned (and later reads of them): written by whoever submits
 * the create (the outbox), refreshed by `put` with the newer record, never swept by a pass.
 */
import type Database from 'better-sqlite3';
import { instantUs, str, type WireRecord } from './rows';

export interface CreatedRecords {
  /** Records a delivery as returned by the service (keyed by `delivery_id`). */
  putDelivery(delivery: WireRecord): void;
  /** Records a job as returned by the service (keyed by `id`). */
  putJob(job: WireRecord): void;
  /** Newest first. */
  deliveries(): WireRecord[];
  jobs(): WireRecord[];
}

export function makeCreatedRecords(
  sqlite: Database.Database,
  nowUs: () => number = () => Date.now() * 1000,
): CreatedRecords {
  const upsert = (table: string) =>
    sqlite.prepare(
      `INSERT INTO ${table} (id, status, created_at_us, json) VALUES (?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET status = excluded.status, json = excluded.json`,
    );
  const list = (table: string) =>
    sqlite.prepare(`SELECT json FROM ${table} ORDER BY created_at_us DESC, id`);
  const putDelivery = upsert('mirror_deliveries');
  const putJob = upsert('mirror_jobs');
  const listDeliveries = list('mirror_deliveries');
  const listJobs = list('mirror_jobs');
  const rows = (s: Database.Statement) =>
    (s.all() as Array<{ json: string }>).map((r) => JSON.parse(r.json) as WireRecord);
  const put = (s: Database.Statement, id: string | null, r: WireRecord, what: string) => {
    if (id === null) throw new TypeError(`${what} without an id`);
    s.run(id, str(r, 'status'), instantUs(r, 'created_at') ?? nowUs(), JSON.stringify(r));
  };
  return {
    putDelivery: (d) => put(putDelivery, str(d, 'delivery_id'), d, 'delivery'),
    putJob: (j) => put(putJob, str(j, 'id'), j, 'job'),
    deliveries: () => rows(listDeliveries),
    jobs: () => rows(listJobs),
  };
}
