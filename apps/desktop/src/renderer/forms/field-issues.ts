/**
 * Validation issues (zod's, or the `{ path, message }` issues of a ContractError) as one message
 * per form field, so each field shows what is wrong with it.
 */
import { toContractError } from '../../shared/contract';

export interface PathIssue {
  readonly path: string;
  readonly message: string;
}

/** zod issues as dotted paths. */
export function pathIssues(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>) {
  return issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

/**
 * The first message per field; `fieldOf` names the field of a path (null: not a field of this
 * form, kept under `form`).
 */
export function messagesByField(
  issues: readonly PathIssue[],
  fieldOf: (path: string) => string | null,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const field = fieldOf(issue.path) ?? 'form';
    out[field] ??= issue.message;
  }
  return out;
}

/** The `{ path, message }` issues of an invalid_argument error; empty for any other error. */
export function contractIssues(err: unknown): PathIssue[] {
  const e = toContractError(err);
  return e.code === 'invalid_argument' ? [...(e.details?.issues ?? [])] : [];
}
