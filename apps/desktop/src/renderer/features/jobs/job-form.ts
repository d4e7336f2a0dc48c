/**
 * The job form as data: a workflow id and a project id, checked with the domain's
 * `CreateJobCall`. Suggestions come from what this client has seen; other values are allowed
 * (a warning says the service decides).
 */
import { CreateJobCall } from '@eo/domain';
import { messagesByField, pathIssues } from '../../forms/field-issues';
import { JOB_WORDS, type JobField } from './job-words';

export interface JobForm {
  workflow_id: string;
  project_id: string;
}

export type { JobField } from './job-words';
export { JOB_WORDS, jobFieldOf } from './job-words';

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
  known: { workflowIds: readonly string[]; projectIds: readonly string[] },
): JobCheck {
  const input = { workflow_id: form.workflow_id.trim(), project_id: form.project_id.trim() };
  const warnings: JobCheck['warnings'] = {};
  if (
    input.workflow_id &&
    known.workflowIds.length > 0 &&
    !known.workflowIds.includes(input.workflow_id)
  ) {
    warnings.workflow_id = `Not a workflow seen here (${known.workflowIds.join(', ')}): the service decides whether it exists.`;
  }
  if (
    input.project_id &&
    known.projectIds.length > 0 &&
    !known.projectIds.includes(input.project_id)
  ) {
    warnings.project_id = `Not a project seen here: the service decides whether it is yours.`;
  }
  const parsed = CreateJobCall.safeParse(input);
  if (parsed.success) return { errors: {}, warnings, payload: parsed.data };
  return {
    errors: messagesByField(pathIssues(parsed.error.issues), JOB_WORDS),
    warnings,
    payload: null,
  };
}
