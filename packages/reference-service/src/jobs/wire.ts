/**
 * Stored rows -> wire shape of spec 2.13 (job). Timestamps are ISO 8601 with Z (the spec
 * gives no layout for jobs). Byte-array fields (`spec`, `inputs`, `result`, `info_logs`) are
 * the UTF-8 bytes of JSON (or, for `info_logs`, of newline-separated log lines): a client
 * decodes them with `new TextDecoder().decode(Uint8Array.from(bytes))`.
 */
import type { Job } from '@eo/domain';
import type { z } from 'zod';
import { toIso, toIsoOrNull } from '../time';
import type { JobRow, JobTaskRow, ValErrorIn } from './repository';

export type JobOut = z.input<typeof Job>;
type JobTaskOut = NonNullable<JobOut['tasks']>[number];

const encoder = new TextEncoder();
export const utf8Bytes = (text: string): number[] => Array.from(encoder.encode(text));

/** A duration as seconds with millisecond precision and an `s` unit: `12.345s`. */
export function formatDuration(us: number): string {
  return `${(Math.max(0, us) / 1_000_000).toFixed(3)}s`;
}

/** Time since `start` until `end`, or until now while still running; null before starting. */
function elapsed(start: number | null, end: number | null, nowUs: number): string | null {
  if (start === null) return null;
  return formatDuration((end ?? nowUs) - start);
}

function taskToWire(t: JobTaskRow, nowUs: number): JobTaskOut {
  const started = toIsoOrNull(t.started_at);
  const finished = toIsoOrNull(t.finished_at);
  return {
    id: t.id,
    name: t.name,
    status: t.status,
    state_msg: t.state_msg,
    time_taken: elapsed(t.started_at, t.finished_at, nowUs),
    created_at: toIso(t.created_at),
    updated_at: toIso(t.updated_at),
    finished_at: finished,
    // One in-process executor: it receives a task when it starts it and sends the result when
    // it finishes, and the block's inference spans the same interval.
    recv_time: started,
    send_time: finished,
    block_inf_start_time: started,
    block_inf_end_time: finished,
    err_msg: t.err_msg,
    failure_type: t.failure_type,
    info_logs: utf8Bytes(t.info_logs_text),
    inputs: utf8Bytes(t.inputs_text),
    result: utf8Bytes(t.result_text),
    depends_on: JSON.parse(t.depends_on_json) as string[],
    disclaimer: JSON.parse(t.disclaimer_json) as string[],
    estimated_time_duration: t.estimated_time_duration,
    progress: t.progress,
    block_info: { id: t.block_id, name: t.block_name, version: t.block_version },
  };
}

/** `project_id` (not in 2.13) says which project the job ran on. */
export function jobToWire(j: JobRow, tasks: JobTaskRow[], nowUs: number): JobOut {
  return {
    id: j.id,
    workflow_id: j.workflow_id,
    project_id: j.project_id,
    created_by: j.created_by,
    status: j.status,
    progress: String(j.progress),
    time_taken: elapsed(j.exec_created_at, j.finished_at, nowUs),
    estimated_duration: j.estimated_duration,
    cost: j.cost,
    spec: utf8Bytes(j.spec_text),
    tasks: tasks.map((t) => taskToWire(t, nowUs)),
    val_errors: JSON.parse(j.val_errors_json) as ValErrorIn[],
    created_at: toIso(j.created_at),
    updated_at: toIso(j.updated_at),
    finished_at: toIsoOrNull(j.finished_at),
    exec_created_at: toIsoOrNull(j.exec_created_at),
    exec_updated_at: toIsoOrNull(j.exec_updated_at),
  };
}

/** A job in a list (`dexter.ListJobsItem`): no tasks, spec or validation errors. */
export function jobSummaryToWire(j: JobRow, nowUs: number): JobOut {
  const { spec: _spec, tasks: _tasks, val_errors: _errors, ...summary } = jobToWire(j, [], nowUs);
  return summary;
}
