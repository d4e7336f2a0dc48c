/** SQL for jobs and their tasks. */
import type { SqlRow } from '@eo/catalog-store';
import type { jobs, jobTasks as jobTasksTable } from './schema';
import type Database from 'better-sqlite3';
import { parseInstantRange, type ListWorkflowJobsQuery } from '@eo/domain';
import { stmt } from '../aois/statements';

export type JobRow = SqlRow<typeof jobs>;

export type JobTaskRow = SqlRow<typeof jobTasksTable>;

/** One item of a job's `val_errors` (a type alias, so it fits the schema's loose object). */
export type ValErrorIn = {
  from: string;
  to: string;
  err: string;
  reason: string;
  component_name: string;
};

export interface NewJob {
  id: string;
  orgId: string;
  projectId: string;
  workflowId: string;
  createdBy: string;
  status: 'QUEUED' | 'FAILED';
  estimatedDuration: number;
  cost: number;
  specText: string;
  valErrors: ValErrorIn[];
  nowUs: number;
}

export function insertJob(sqlite: Database.Database, j: NewJob): void {
  stmt(
    sqlite,
    `INSERT INTO jobs (id, org_id, project_id, workflow_id, created_by, status, progress,
       estimated_duration, cost, spec_text, val_errors_json, created_at, updated_at, finished_at)
     VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    j.id,
    j.orgId,
    j.projectId,
    j.workflowId,
    j.createdBy,
    j.status,
    j.estimatedDuration,
    j.cost,
    j.specText,
    JSON.stringify(j.valErrors),
    j.nowUs,
    j.nowUs,
    // A job refused by validation is finished the moment it is created.
    j.status === 'FAILED' ? j.nowUs : null,
  );
}

export interface NewJobTask {
  id: string;
  jobId: string;
  position: number;
  stepKey: string;
  name: string;
  block: { id: string; name: string; version: string };
  status: 'PENDING' | 'SKIPPED';
  stateMsg: string;
  estimatedTimeDuration: number;
  dependsOn: string[];
  disclaimer: readonly string[];
  inputsText: string;
  nowUs: number;
}

export function insertJobTask(sqlite: Database.Database, t: NewJobTask): void {
  stmt(
    sqlite,
    `INSERT INTO job_tasks (id, job_id, position, step_key, name, block_id, block_name, block_version,
       status, state_msg, progress, estimated_time_duration, depends_on_json, disclaimer_json,
       info_logs_text, inputs_text, result_text, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, '', ?, '', ?, ?)`,
  ).run(
    t.id,
    t.jobId,
    t.position,
    t.stepKey,
    t.name,
    t.block.id,
    t.block.name,
    t.block.version,
    t.status,
    t.stateMsg,
    t.estimatedTimeDuration,
    JSON.stringify(t.dependsOn),
    JSON.stringify(t.disclaimer),
    t.inputsText,
    t.nowUs,
    t.nowUs,
  );
}

export function getJob(sqlite: Database.Database, orgId: string, id: string): JobRow | undefined {
  return stmt<[string, string], JobRow>(
    sqlite,
    'SELECT * FROM jobs WHERE id = ? AND org_id = ?',
  ).get(id, orgId);
}

export function getJobById(sqlite: Database.Database, id: string): JobRow | undefined {
  return stmt<[string], JobRow>(sqlite, 'SELECT * FROM jobs WHERE id = ?').get(id);
}

/**
 * The organisation's jobs of one workflow, oldest first, filtered as `GET
 * /v0/workflows/{workflow_id}/jobs` asks (`status` in any case; `created_on` an interval).
 */
export function listWorkflowJobs(
  sqlite: Database.Database,
  orgId: string,
  workflowId: string,
  q: ListWorkflowJobsQuery,
): JobRow[] {
  const where = ['org_id = @orgId', 'workflow_id = @workflowId'];
  const params: Record<string, string | number> = { orgId, workflowId };
  const add = (condition: string, name: string, value: string | number | undefined) => {
    if (value === undefined) return;
    where.push(condition);
    params[name] = value;
  };
  add('id = @id', 'id', q.id);
  add('status = @status', 'status', q.status?.trim().toUpperCase());
  add('created_by = @created_by', 'created_by', q.created_by);
  const range = q.created_on === undefined ? undefined : parseInstantRange(q.created_on);
  // The query schema already rejected malformed intervals.
  if (range?.ok) {
    add('created_at >= @start', 'start', range.value.start ?? undefined);
    add('created_at <= @end', 'end', range.value.end ?? undefined);
  }
  return stmt<[typeof params], JobRow>(
    sqlite,
    `SELECT * FROM jobs WHERE ${where.join(' AND ')} ORDER BY seq`,
  ).all(params);
}

export function jobTasks(sqlite: Database.Database, jobId: string): JobTaskRow[] {
  return stmt<[string], JobTaskRow>(
    sqlite,
    'SELECT * FROM job_tasks WHERE job_id = ? ORDER BY position',
  ).all(jobId);
}

export function updateJob(
  sqlite: Database.Database,
  id: string,
  f: { status: string; progress: number; nowUs: number; started?: boolean; finished?: boolean },
): void {
  stmt(
    sqlite,
    `UPDATE jobs SET status = @status, progress = @progress, updated_at = @now,
       exec_created_at = CASE WHEN @started THEN @now ELSE exec_created_at END,
       exec_updated_at = @now,
       finished_at = CASE WHEN @finished THEN @now ELSE finished_at END
     WHERE id = @id`,
  ).run({
    id,
    status: f.status,
    progress: f.progress,
    now: f.nowUs,
    started: f.started ? 1 : 0,
    finished: f.finished ? 1 : 0,
  });
}

export function startJobTask(sqlite: Database.Database, id: string, nowUs: number): void {
  stmt(
    sqlite,
    `UPDATE job_tasks SET status = 'RUNNING', state_msg = 'running', started_at = ?, updated_at = ?
     WHERE id = ? AND status = 'PENDING'`,
  ).run(nowUs, nowUs, id);
}

export function finishJobTask(
  sqlite: Database.Database,
  id: string,
  f: {
    status: 'SUCCEEDED' | 'FAILED';
    stateMsg: string;
    errMsg: string | null;
    failureType: string | null;
    logsText: string;
    resultText: string;
    nowUs: number;
  },
): void {
  stmt(
    sqlite,
    `UPDATE job_tasks SET status = ?, state_msg = ?, err_msg = ?, failure_type = ?, progress = 100,
       info_logs_text = ?, result_text = ?, finished_at = ?, updated_at = ?
     WHERE id = ? AND status = 'RUNNING'`,
  ).run(
    f.status,
    f.stateMsg,
    f.errMsg,
    f.failureType,
    f.logsText,
    f.resultText,
    f.nowUs,
    f.nowUs,
    id,
  );
}

export function skipPendingTasks(
  sqlite: Database.Database,
  jobId: string,
  stateMsg: string,
  nowUs: number,
): void {
  stmt(
    sqlite,
    `UPDATE job_tasks SET status = 'SKIPPED', state_msg = ?, updated_at = ?
     WHERE job_id = ? AND status = 'PENDING'`,
  ).run(stateMsg, nowUs, jobId);
}
