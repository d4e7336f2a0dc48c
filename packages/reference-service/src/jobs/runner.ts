/**
 * Runs a job's tasks in the background, one worker step at a time (one executor, tasks in
 * workflow order, which is topological):
 *
 * - step 1: QUEUED -> RUNNING; the first task PENDING -> RUNNING.
 * - each next step runs the RUNNING task's block to its end (SUCCEEDED with a result, or
 *   FAILED with err_msg / failure_type) and starts the next task whose dependencies all
 *   succeeded. After a failure the remaining tasks are SKIPPED and the job is FAILED; when
 *   every task succeeded the job is SUCCEEDED. Progress is the share of succeeded tasks.
 *
 * A step runs in one transaction with its effects and its successor (restart-safe); a
 * repeated step on a finished job changes nothing.
 */
import type { AppContext } from '../context';
import type { StepTools } from '../worker/worker';
import {
  finishJobTask,
  getJobById,
  jobTasks,
  skipPendingTasks,
  startJobTask,
  updateJob,
  type JobRow,
  type JobTaskRow,
} from './repository';
import { workflowById, type StepOutcome } from './workflows';

export const JOB_STEP = 'job.advance';

export function registerJobSteps(ctx: AppContext): void {
  ctx.worker.register(
    JOB_STEP,
    (jobId, tools) => advanceJob(ctx, jobId, tools),
    (jobId, reason) => giveUpJob(ctx, jobId, reason),
  );
}

/** The worker gave up on a step: the running task FAILED with why, the rest SKIPPED, job FAILED. */
export function giveUpJob(ctx: AppContext, jobId: string, reason: string): void {
  const job = getJobById(ctx.sqlite, jobId);
  if (!job || (job.status !== 'QUEUED' && job.status !== 'RUNNING')) return;
  const now = ctx.nowUs();
  const tasks = jobTasks(ctx.sqlite, jobId);
  const running = tasks.find((t) => t.status === 'RUNNING');
  if (running) {
    finishJobTask(ctx.sqlite, running.id, {
      status: 'FAILED',
      stateMsg: 'failed',
      errMsg: reason,
      failureType: 'SYSTEM',
      logsText: '',
      resultText: '',
      nowUs: now,
    });
  }
  skipPendingTasks(ctx.sqlite, jobId, `skipped: ${reason}`, now);
  const succeeded = tasks.filter((t) => t.status === 'SUCCEEDED').length;
  const progress = Math.floor((100 * succeeded) / Math.max(1, tasks.length));
  updateJob(ctx.sqlite, jobId, { status: 'FAILED', progress, nowUs: now, finished: true });
}

function nextReadyTask(tasks: JobTaskRow[]): JobTaskRow | undefined {
  const succeeded = new Set(tasks.filter((t) => t.status === 'SUCCEEDED').map((t) => t.id));
  return tasks.find(
    (t) =>
      t.status === 'PENDING' &&
      (JSON.parse(t.depends_on_json) as string[]).every((d) => succeeded.has(d)),
  );
}

function runTask(ctx: AppContext, job: JobRow, task: JobTaskRow, tasks: JobTaskRow[]): StepOutcome {
  const step = workflowById(job.workflow_id)?.steps.find((s) => s.key === task.step_key);
  if (!step) {
    return {
      ok: false,
      err: `workflow ${job.workflow_id} has no step ${task.step_key}`,
      failureType: 'SYSTEM',
      logs: [],
    };
  }
  const upstream: Record<string, unknown> = {};
  for (const t of tasks) {
    if (t.status === 'SUCCEEDED' && step.dependsOn.includes(t.step_key)) {
      upstream[t.step_key] = JSON.parse(t.result_text) as unknown;
    }
  }
  return step.run({ sqlite: ctx.sqlite, orgId: job.org_id, projectId: job.project_id, upstream });
}

export function advanceJob(ctx: AppContext, jobId: string, tools: StepTools): void {
  const job = getJobById(ctx.sqlite, jobId);
  if (!job) return;
  const now = ctx.nowUs();

  if (job.status === 'QUEUED') {
    const first = nextReadyTask(jobTasks(ctx.sqlite, jobId));
    if (first) startJobTask(ctx.sqlite, first.id, now);
    updateJob(ctx.sqlite, jobId, { status: 'RUNNING', progress: 0, nowUs: now, started: true });
    tools.schedule(JOB_STEP, jobId);
    return;
  }
  if (job.status !== 'RUNNING') return;

  let tasks = jobTasks(ctx.sqlite, jobId);
  const running = tasks.find((t) => t.status === 'RUNNING');
  if (running) {
    const outcome = runTask(ctx, job, running, tasks);
    const logsText = outcome.logs.join('\n');
    if (outcome.ok) {
      finishJobTask(ctx.sqlite, running.id, {
        status: 'SUCCEEDED',
        stateMsg: 'succeeded',
        errMsg: null,
        failureType: null,
        logsText,
        resultText: JSON.stringify(outcome.result),
        nowUs: now,
      });
    } else {
      finishJobTask(ctx.sqlite, running.id, {
        status: 'FAILED',
        stateMsg: 'failed',
        errMsg: outcome.err,
        failureType: outcome.failureType,
        logsText,
        resultText: '',
        nowUs: now,
      });
      skipPendingTasks(ctx.sqlite, jobId, `skipped: ${running.name} failed`, now);
    }
    tasks = jobTasks(ctx.sqlite, jobId);
  }
  const succeeded = tasks.filter((t) => t.status === 'SUCCEEDED').length;
  const progress = Math.floor((100 * succeeded) / Math.max(1, tasks.length));
  if (tasks.some((t) => t.status === 'FAILED')) {
    skipPendingTasks(ctx.sqlite, jobId, 'skipped: an earlier task failed', now);
    updateJob(ctx.sqlite, jobId, { status: 'FAILED', progress, nowUs: now, finished: true });
    return;
  }
  const next = nextReadyTask(tasks);
  if (next) {
    startJobTask(ctx.sqlite, next.id, now);
    updateJob(ctx.sqlite, jobId, { status: 'RUNNING', progress, nowUs: now });
    tools.schedule(JOB_STEP, jobId);
    return;
  }
  const stuck = tasks.some((t) => t.status === 'PENDING');
  updateJob(ctx.sqlite, jobId, {
    status: stuck ? 'FAILED' : 'SUCCEEDED',
    progress,
    nowUs: now,
    finished: true,
  });
}
