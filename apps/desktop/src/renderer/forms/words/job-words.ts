/**
 * The job form's words alone (no form logic, no schemas): what the Outbox screen needs to say a
 * refused job's problems in the form's labels (outbox/refusal-words.ts). features/jobs/job-form.ts uses them.
 */
import { formWords } from '../form-words';

/** The job form's fields (features/jobs/job-form.ts). */
export type JobField = 'workflow_id' | 'project_id';

export const jobFieldOf = (path: readonly string[]): JobField | null =>
  path[0] === 'workflow_id' || path[0] === 'project_id' ? path[0] : null;

/** The job form's labels and messages (what the domain calls workflow_id, project_id). */
export const JOB_WORDS = formWords<JobField>({
  fieldOf: jobFieldOf,
  fields: {
    workflow_id: { label: 'Workflow', required: 'Choose a workflow' },
    project_id: { label: 'Project', required: 'Choose a project' },
  },
});
