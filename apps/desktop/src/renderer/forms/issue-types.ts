/**
 * The shapes issues travel in between the forms' modules: field-issues.ts (messages per field)
 * and form-words.ts (a form's words) both use them, so neither imports the other for them.
 */
export interface PathIssue {
  readonly path: string;
  readonly message: string;
}

/** The form field of an issue path (its segments, `['deliveries', '0', 'cloud_info']`). */
export type FieldOf<F extends string> = (path: readonly string[]) => F | null;
