/**
 * Validation messages placed on a form's fields: from the domain schema (checked as the user
 * types) and from the backend's `invalid_argument` answer (paths under `input.`). `fieldOf`
 * tells which form field a path belongs to; anything it cannot place goes to `form`, with its
 * path in words.
 */
import { plainProblem } from '../format/fields';
import { fieldErrors } from '../stores/errors';

export type FieldErrors = Record<string, string>;

export interface Issue {
  readonly path: ReadonlyArray<PropertyKey>;
  readonly message: string;
}

/** The first message per field (the most basic problem of a field is reported first). */
export function issuesByField(
  issues: ReadonlyArray<Issue>,
  fieldOf: (path: string[]) => string | null,
): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) {
    const path = issue.path.map(String);
    const key = fieldOf(path);
    if (key) out[key] ??= issue.message;
    else out['form'] ??= plainProblem({ path: path.join('.'), message: issue.message });
  }
  return out;
}

/** The backend's field messages for an enqueue or edit, by form field. */
export function serverFieldErrors(
  err: unknown,
  fieldOf: (path: string[]) => string | null,
): FieldErrors {
  const out: FieldErrors = {};
  for (const [path, message] of Object.entries(fieldErrors(err))) {
    const parts = path === 'form' ? [] : path.split('.');
    if (parts[0] === 'input') parts.shift();
    const key = parts.length > 0 ? fieldOf(parts) : null;
    if (key) out[key] ??= message;
    else
      out['form'] ??= parts.length > 0 ? plainProblem({ path: parts.join('.'), message }) : message;
  }
  return out;
}
