/**
 * 4.13 POST /v0/workflows/{workflow_id}/jobs, and the extension reads: GET /v0/jobs/{job_id},
 * the provider's GET /v0/workflows/{workflow_id}/jobs (a workflow's jobs, without tasks),
 * .../jobs/{job_id} (one job with its tasks) and .../estimate (the cost in credits).
 */
import type { AppContext } from '../context';
import type { Router } from '../http/endpoint';
import { ApiError } from '../http/errors';
import { newId } from '../ids';
import { projectBelongsTo } from '../orgs/repository';
import {
  getJob,
  insertJob,
  insertJobTask,
  jobTasks,
  listWorkflowJobs,
  type ValErrorIn,
} from './repository';
import { JOB_STEP, registerJobSteps } from './runner';
import { jobSummaryToWire, jobToWire } from './wire';
import { estimate, projectAois, workflowById, workflowSpec, type Workflow } from './workflows';

/** Problems that stop a job before it runs (spec part 7: reported in `val_errors`). */
function validateJob(w: Workflow, projectId: string, aoiCount: number): ValErrorIn[] {
  const first = w.steps[0]!;
  if (aoiCount > 0) return [];
  return [
    {
      from: `project:${projectId}`,
      to: first.key,
      err: 'NO_AOIS',
      reason: `project ${projectId} has no AOIs; ${w.name} runs over the AOIs of a project, create one first`,
      component_name: first.key,
    },
  ];
}

/** A `project_id` query parameter must name a project of the caller's organisation (400). */
function checkProject(ctx: AppContext, projectId: string, orgId: string): void {
  if (projectBelongsTo(ctx.sqlite, projectId, orgId)) return;
  const message = `unknown project ${JSON.stringify(projectId)} in your organisation`;
  throw new ApiError(400, 'validation_failed', `Invalid query: project_id: ${message}`, [
    { path: 'project_id', message, in: 'query' },
  ]);
}

export function registerJobRoutes(router: Router, ctx: AppContext): void {
  registerJobSteps(ctx);

  router.create('createJob', ({ principal, params, query }) => {
    const workflow = workflowById(params.workflow_id);
    if (!workflow) throw ApiError.notFound('workflow', params.workflow_id);
    checkProject(ctx, query.project_id, principal.orgId);
    const aoiCount = projectAois(ctx.sqlite, principal.orgId, query.project_id).length;
    const valErrors = validateJob(workflow, query.project_id, aoiCount);
    const { seconds, tokens } = estimate(workflow, aoiCount);
    const now = ctx.nowUs();
    const jobId = newId('job');
    insertJob(ctx.sqlite, {
      id: jobId,
      orgId: principal.orgId,
      projectId: query.project_id,
      workflowId: workflow.id,
      createdBy: principal.userId,
      status: valErrors.length > 0 ? 'FAILED' : 'QUEUED',
      estimatedDuration: seconds,
      cost: tokens,
      specText: workflowSpec(workflow, query.project_id),
      valErrors,
      nowUs: now,
    });
    const taskIds = new Map(workflow.steps.map((s) => [s.key, newId('jt')]));
    workflow.steps.forEach((step, position) => {
      insertJobTask(ctx.sqlite, {
        id: taskIds.get(step.key)!,
        jobId,
        position,
        stepKey: step.key,
        name: step.name,
        block: step.block,
        status: valErrors.length > 0 ? 'SKIPPED' : 'PENDING',
        stateMsg: valErrors.length > 0 ? 'skipped: the job did not pass validation' : 'queued',
        estimatedTimeDuration: step.seconds.base + step.seconds.perAoi * aoiCount,
        dependsOn: step.dependsOn.map((k) => taskIds.get(k)!),
        disclaimer: step.disclaimer,
        inputsText: JSON.stringify({
          project_id: query.project_id,
          depends_on: step.dependsOn,
        }),
        nowUs: now,
      });
    });
    if (valErrors.length === 0) ctx.worker.schedule(JOB_STEP, jobId);
    return jobToWire(getJob(ctx.sqlite, principal.orgId, jobId)!, jobTasks(ctx.sqlite, jobId), now);
  });

  router.readExtension('getJob', ({ principal, params }) => {
    const job = getJob(ctx.sqlite, principal.orgId, params.job_id);
    if (!job) throw ApiError.notFound('job', params.job_id);
    return jobToWire(job, jobTasks(ctx.sqlite, job.id), ctx.nowUs());
  });

  const knownWorkflow = (id: string) => {
    const workflow = workflowById(id);
    if (!workflow) throw ApiError.notFound('workflow', id);
    return workflow;
  };

  router.readExtension('listWorkflowJobs', ({ principal, params, query }) => {
    const workflow = knownWorkflow(params.workflow_id);
    const now = ctx.nowUs();
    const rows = listWorkflowJobs(ctx.sqlite, principal.orgId, workflow.id, query);
    return { jobs: rows.map((j) => jobSummaryToWire(j, now)) };
  });

  router.readExtension('getWorkflowJob', ({ principal, params }) => {
    const job = getJob(ctx.sqlite, principal.orgId, params.job_id);
    // A job is known only under its own workflow.
    if (!job || job.workflow_id !== params.workflow_id)
      throw ApiError.notFound('job', params.job_id);
    return jobToWire(job, jobTasks(ctx.sqlite, job.id), ctx.nowUs());
  });

  // Priced like a create (`estimate`): over the project's AOIs, or over one AOI when no project
  // is named (the provider's estimate takes no parameter; see docs/choices-field-operations.md).
  router.readExtension('estimateWorkflowCost', ({ principal, params, query }) => {
    const workflow = knownWorkflow(params.workflow_id);
    let aoiCount = 1;
    if (query.project_id !== undefined) {
      checkProject(ctx, query.project_id, principal.orgId);
      aoiCount = projectAois(ctx.sqlite, principal.orgId, query.project_id).length;
    }
    return { estimated_cost: estimate(workflow, aoiCount).tokens, aoi_count: aoiCount };
  });
}
