/**
 * Validation issues as one message per form field, so each field shows what is wrong with it:
 * zod's issues (the domain schema, checked as the user types) and the `{ path, message }` issues
 * of a ContractError (what the backend or the service refused). Every form places its messages
 * with these; `fieldOf` says which field of the form a path belongs to.
 */
// The contract's own files, not its index: that brings every method's schemas (initial JS).
import { toContractError } from '../../shared/contract/errors';
import { plainProblem } from '../format/fields';
import type { FormWords } from './form-words';
import type { FieldOf, PathIssue } from './issue-types';

export type { FieldOf, PathIssue } from './issue-types';

/** One message per field; `form` holds what no field could take. */
export type FieldMessages<F extends string> = Partial<Record<F | 'form', string>>;

/** zod issues as dotted paths. */
export function pathIssues(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
): PathIssue[] {
  return issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

/**
 * The first message per field (the most basic problem of a field is reported first). What
 * the form cannot place goes under `form`, with its path in words, so the person still knows
 * what it is about; an issue of the whole request is its message alone. With the form's
 * `words` (form-words.ts) paths and messages read as the form does; a bare `fieldOf` keeps the
 * API's words.
 */
export function messagesByField<F extends string>(
  issues: readonly PathIssue[],
  words: FieldOf<F> | FormWords<F>,
): FieldMessages<F> {
  const fieldOf = typeof words === 'function' ? words : words.fieldOf;
  const out: FieldMessages<F> = {};
  for (const issue of issues) {
    const path = issue.path.split('.').filter((p) => p !== '');
    const field = path.length > 0 ? fieldOf(path) : null;
    if (typeof words === 'function') {
      if (field) out[field] ??= issue.message;
      else out.form ??= path.length > 0 ? plainProblem(issue) : issue.message;
      continue;
    }
    const message = words.say(issue);
    if (field) out[field] ??= message;
    else out.form ??= path.length > 0 ? `${words.pathLabel(path)}: ${message}` : message;
  }
  return out;
}

/** The `{ path, message }` issues of an invalid_argument error; empty for any other error. */
export function contractIssues(err: unknown): PathIssue[] {
  const e = toContractError(err);
  return e.code === 'invalid_argument' ? [...(e.details?.issues ?? [])] : [];
}

/**
 * The backend's refusal of an enqueue or edit by form field. The backend names the create's
 * fields under `input.` (`input.satellite_id`); the form knows them without it. Empty when the
 * error is not about the input (offline, unauthorized...): the caller shows it as a failure.
 */
export function serverFieldErrors<F extends string>(
  err: unknown,
  fieldOf: FieldOf<F> | FormWords<F>,
): FieldMessages<F> {
  const issues = contractIssues(err).map((i) => ({
    path: i.path === 'input' ? '' : i.path.replace(/^input\./, ''),
    message: i.message,
  }));
  return messagesByField(issues, fieldOf);
}
