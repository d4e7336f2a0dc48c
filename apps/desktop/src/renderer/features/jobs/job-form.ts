/**
 * The job form as data: a workflow id and a project id, checked with the domain's
 * `CreateJobCall`. Where the service listed workflows or projects, an id outside its list is an
 * error naming the nearest ones (`forms/known-ids.ts`); where it listed none, other values are
 * allowed (a warning says the service decides).
 */
import { CreateJobCall } from '@eo/domain';
import type { Lookups } from '../../../shared/contract';
import { messagesByField, pathIssues } from '../../forms/field-issues';
import { unknownIdError, type KnownIds } from '../../forms/known-ids';
import { JOB_WORDS, type JobField } from '../../forms/words/job-words';

export interface JobForm extends Record<JobField, string> {
  workflow_id: string;
  project_id: string;
}

export type { JobField } from '../../forms/words/job-words';
export { JOB_WORDS } from '../../forms/words/job-words';

export function emptyJobForm(): JobForm {
  return { workflow_id: '', project_id: '' };
}

export function jobFormFromInput(input: Record<string, unknown>): JobForm {
  const str = (k: string) => (typeof input[k] === 'string' ? (input[k] as string) : '');
  return { workflow_id: str('workflow_id'), project_id: str('project_id') };
}

export interface JobCheck {
  readonly errors: Partial<Record<JobField | 'form', string>>;
  readonly warnings: Partial<Record<JobField, string>>;
  readonly payload: CreateJobCall | null;
}

export function checkJobForm(
  form: JobForm,
  known: KnownIds & Pick<Lookups, 'workflowIds' | 'projectIds'>,
): JobCheck {
  const input = { workflow_id: form.workflow_id.trim(), project_id: form.project_id.trim() };
  const warnings: JobCheck['warnings'] = {};
  // Ids outside the service's own lists: errors (they fail on send), with the nearest ones.
  const unknown: JobCheck['errors'] = {};
  const workflow = unknownIdError('workflow', input.workflow_id, known);
  if (workflow) unknown.workflow_id = workflow;
  const project = unknownIdError('project', input.project_id, known);
  if (project) unknown.project_id = project;
  if (
    !workflow &&
    known.serviceIds.workflows.length === 0 &&
    input.workflow_id &&
    known.workflowIds.length > 0 &&
    !known.workflowIds.includes(input.workflow_id)
  ) {
    warnings.workflow_id = `Not a workflow seen here (${known.workflowIds.join(', ')}): the service decides whether it exists.`;
  }
  if (
    !project &&
    known.serviceIds.projects.length === 0 &&
    input.project_id &&
    known.projectIds.length > 0 &&
    !known.projectIds.includes(input.project_id)
  ) {
    warnings.project_id = `Not a project seen here: the service decides whether it is yours.`;
  }
  const parsed = CreateJobCall.safeParse(input);
  if (parsed.success) {
    const ok = Object.keys(unknown).length === 0;
    return { errors: unknown, warnings, payload: ok ? parsed.data : null };
  }
  return {
    errors: { ...unknown, ...messagesByField(pathIssues(parsed.error.issues), JOB_WORDS) },
    warnings,
    payload: null,
  };
}
