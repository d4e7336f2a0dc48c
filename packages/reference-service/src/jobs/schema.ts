/**
 * Jobs (spec 2.13) started from a workflow (reference data in `./workflows.ts`), and their
 * tasks, one per workflow step. Byte-array fields of the spec (`spec`, `inputs`, `result`,
 * `info_logs`) are stored as the UTF-8 text they encode.
 */
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const jobs = sqliteTable(
  'jobs',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    orgId: text('org_id').notNull(),
    projectId: text('project_id').notNull(),
    workflowId: text('workflow_id').notNull(),
    createdBy: text('created_by').notNull(),
    /** QUEUED, RUNNING, SUCCEEDED, FAILED. */
    status: text('status').notNull(),
    /** 0..100; a string on the wire. */
    progress: integer('progress').notNull(),
    estimatedDuration: integer('estimated_duration').notNull(),
    cost: integer('cost').notNull(),
    specText: text('spec_text').notNull(),
    valErrorsJson: text('val_errors_json').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    finishedAt: integer('finished_at'),
    execCreatedAt: integer('exec_created_at'),
    execUpdatedAt: integer('exec_updated_at'),
  },
  (t) => [index('jobs_org_seq').on(t.orgId, t.seq)],
);

export const jobTasks = sqliteTable(
  'job_tasks',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    id: text('id').notNull().unique(),
    jobId: text('job_id')
      .notNull()
      .references(() => jobs.id),
    /** Order of the step in the workflow (a topological order). */
    position: integer('position').notNull(),
    /** The workflow step key, e.g. `collect-aois`. */
    stepKey: text('step_key').notNull(),
    name: text('name').notNull(),
    blockId: text('block_id').notNull(),
    blockName: text('block_name').notNull(),
    blockVersion: text('block_version').notNull(),
    /** PENDING, RUNNING, SUCCEEDED, FAILED, SKIPPED. */
    status: text('status').notNull(),
    stateMsg: text('state_msg').notNull(),
    errMsg: text('err_msg'),
    failureType: text('failure_type'),
    progress: integer('progress').notNull(),
    estimatedTimeDuration: integer('estimated_time_duration').notNull(),
    dependsOnJson: text('depends_on_json').notNull(),
    disclaimerJson: text('disclaimer_json').notNull(),
    infoLogsText: text('info_logs_text').notNull(),
    inputsText: text('inputs_text').notNull(),
    resultText: text('result_text').notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    startedAt: integer('started_at'),
    finishedAt: integer('finished_at'),
  },
  (t) => [index('job_tasks_job').on(t.jobId, t.position)],
);
