/**
 * The provider's job and task downloads (PUT .../jobs/{job_id}/download and
 * .../tasks/{task_id}/download), served as extensions: a package of the results, behind a signed
 * URL like the downloads' files (no API key; the signature is the permission).
 *
 * Nothing is stored: a package is read from the job when its URL is fetched, so a PUT is
 * idempotent (the same job answers the same package) and nothing expiring is kept. A package
 * is `success` once the job (or the task) has finished, whatever its outcome (a failed task's
 * package holds its `err_msg`, a skipped one its `state_msg`); before, `in_progress` without a
 * URL: the client asks again.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import type { Router } from '../http/endpoint';
import { ApiError } from '../http/errors';
import { toIso } from '../time';
import { getJob, getJobById, jobTasks, type JobRow, type JobTaskRow } from './repository';

export const JOB_PACKAGE_ROUTE = '/jobs/:job_id/package.json';
export const TASK_PACKAGE_ROUTE = '/jobs/:job_id/tasks/:task_id/package.json';

const jobPackagePath = (jobId: string) => `/jobs/${encodeURIComponent(jobId)}/package.json`;
const taskPackagePath = (jobId: string, taskId: string) =>
  `/jobs/${encodeURIComponent(jobId)}/tasks/${encodeURIComponent(taskId)}/package.json`;

/** One task in a package: what went in, what came out, and why it failed if it did. */
function taskEntry(t: JobTaskRow) {
  return {
    id: t.id,
    name: t.name,
    status: t.status,
    state_msg: t.state_msg,
    err_msg: t.err_msg,
    inputs: t.inputs_text,
    result: t.result_text,
    finished_at: t.finished_at === null ? null : toIso(t.finished_at),
  };
}

/** A task's results are final once it finished, or its job did (a skipped task never runs). */
const taskReady = (job: JobRow, task: JobTaskRow) =>
  task.finished_at !== null || job.finished_at !== null;

function jobIn(ctx: AppContext, orgId: string, workflowId: string, jobId: string): JobRow {
  const job = getJob(ctx.sqlite, orgId, jobId);
  // A job is known only under its own workflow (as the reads).
  if (!job || job.workflow_id !== workflowId) throw ApiError.notFound('job', jobId);
  return job;
}

export function registerJobPackageRoutes(router: Router, app: FastifyInstance, ctx: AppContext) {
  const { signer } = ctx.imagery;

  router.readExtension('downloadJob', ({ principal, params }) => {
    const job = jobIn(ctx, principal.orgId, params.workflow_id, params.job_id);
    const ready = job.finished_at !== null;
    return {
      id: job.id,
      status: ready ? 'success' : 'in_progress',
      ...(ready ? { signed_url: signer.sign(jobPackagePath(job.id)) } : {}),
      workflowId: job.workflow_id,
    };
  });

  router.readExtension('downloadTask', ({ principal, params }) => {
    const job = jobIn(ctx, principal.orgId, params.workflow_id, params.job_id);
    const task = jobTasks(ctx.sqlite, job.id).find((t) => t.id === params.task_id);
    if (!task) throw ApiError.notFound('task', params.task_id);
    const ready = taskReady(job, task);
    return {
      id: task.id,
      job_id: job.id,
      workflow_id: job.workflow_id,
      status: ready ? 'success' : 'in_progress',
      ...(ready ? { signed_url: signer.sign(taskPackagePath(job.id, task.id)) } : {}),
    };
  });

  const checkSigned = (request: FastifyRequest) => {
    const pathname = request.url.split('?')[0]!;
    const verdict = signer.verify(pathname, request.query as Record<string, unknown>);
    if (verdict === 'ok') return;
    throw new ApiError(
      403,
      'forbidden',
      verdict === 'expired'
        ? 'This package URL has expired: ask for the download again for a fresh one'
        : 'Package URLs need the expires and signature parameters they were issued with (API keys are not accepted here)',
    );
  };
  const send = (reply: FastifyReply, body: unknown) =>
    reply.header('cache-control', 'private, no-store').type('application/json').send(body);

  app.get(JOB_PACKAGE_ROUTE, { logLevel: 'warn' }, (request, reply) => {
    checkSigned(request);
    const { job_id: jobId } = request.params as { job_id: string };
    const job = getJobById(ctx.sqlite, jobId);
    if (!job || job.finished_at === null) throw ApiError.notFound('job package', jobId);
    return send(reply, {
      package_version: 1,
      job_id: job.id,
      workflow_id: job.workflow_id,
      status: job.status,
      tasks: jobTasks(ctx.sqlite, job.id).map(taskEntry),
    });
  });

  app.get(TASK_PACKAGE_ROUTE, { logLevel: 'warn' }, (request, reply) => {
    checkSigned(request);
    const { job_id: jobId, task_id: taskId } = request.params as {
      job_id: string;
      task_id: string;
    };
    const job = getJobById(ctx.sqlite, jobId);
    const task = job && jobTasks(ctx.sqlite, job.id).find((t) => t.id === taskId);
    if (!job || !task || !taskReady(job, task)) throw ApiError.notFound('task package', taskId);
    return send(reply, {
      package_version: 1,
      job_id: job.id,
      workflow_id: job.workflow_id,
      tasks: [taskEntry(task)],
    });
  });
}
