/**
 * A form's words for what the domain and the service say in API terms: each form declares its
 * fields' labels (the ones it shows), which are required and what to say when they are left
 * empty ("Choose a project"), and the API names below its fields in words (`item_ids` →
 * "Scenes", one element "scene"). With them an issue path reads as the form does
 * (`item_ids.1` → "Scenes › 2nd scene") and a message names no API field
 * ("project_id is required" → "Choose a project").
 *
 * The domain's messages stay as they are: the service answers with them, and the outbox shows
 * them for kinds no form edits. Only what a form shows goes through its words.
 */
import type { FieldOf, PathIssue } from './issue-types';

export interface FieldWords {
  /** The label the form shows for the field. */
  readonly label: string;
  /** What to say while a required field is empty; a field without one is optional. */
  readonly required?: string;
}

export interface FormWordsSpec<F extends string> {
  readonly fieldOf: FieldOf<F>;
  /** Every field of the form in the order it shows them (the error summary's order). */
  readonly fields: Readonly<Record<F, FieldWords>>;
  /** API names in words (`item_ids` → "Scenes"); a field's own name may be left to `fields`. */
  readonly names?: Readonly<Record<string, string>>;
  /** What one element of an API list is called (`item_ids` → "scene": "2nd scene"). */
  readonly elements?: Readonly<Record<string, string>>;
  /** API messages in the form's words (`message.replace(pattern, words)`), first match wins. */
  readonly messages?: ReadonlyArray<readonly [RegExp, string]>;
}

export interface FormWords<F extends string> extends FormWordsSpec<F> {
  /** An issue path in the form's words; "" for the whole request. */
  pathLabel(path: readonly string[]): string;
  /** An issue's message in the form's words. */
  say(issue: PathIssue): string;
  /** Whether a field must be filled in (it has a `required` message). */
  isRequired(field: F): boolean;
}

/** "1st", "2nd", "3rd", "4th", "11th", "22nd". */
export function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

/** An API name a person reads: `cloud_cover` → "Cloud cover". */
function humanize(name: string): string {
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

// Messages that mean "this is empty" (the domain's wording for a missing or empty value).
const EMPTY = /\b(is required|needs at least one|must not be empty)\b/;
// snake_case API names inside a message (`order_item_ids`, `cloud_cover`).
const API_NAME = /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g;

export function formWords<F extends string>(spec: FormWordsSpec<F>): FormWords<F> {
  const nameOf = (segment: string): string => {
    const named = spec.names?.[segment];
    if (named !== undefined) return named;
    const field = spec.fieldOf([segment]);
    return field ? spec.fields[field].label : humanize(segment);
  };

  function pathLabel(path: readonly string[]): string {
    const words: string[] = [];
    let list: string | null = null;
    for (const segment of path) {
      if (/^\d+$/.test(segment)) {
        const n = Number(segment) + 1;
        const element = list ? spec.elements?.[list] : undefined;
        words.push(element ? `${ordinal(n)} ${element}` : `#${n}`);
      } else if (nameOf(segment) !== '') {
        // A name given as '' is left out: `deliveries.1` reads "2nd request".
        words.push(nameOf(segment));
      }
      list = segment;
    }
    const label = words.join(' › ');
    return label.charAt(0).toUpperCase() + label.slice(1);
  }

  function say(issue: PathIssue): string {
    const path = issue.path.split('.').filter((p) => p !== '');
    for (const [pattern, words] of spec.messages ?? []) {
      if (pattern.test(issue.message)) return issue.message.replace(pattern, words);
    }
    const field = path.length > 0 ? spec.fieldOf(path) : null;
    const required = field ? spec.fields[field].required : undefined;
    if (required && EMPTY.test(issue.message)) return required;
    const plain = issue.message.replace(API_NAME, (name) =>
      (nameOf(name) || name.replace(/_/g, ' ')).toLowerCase(),
    );
    return plain.charAt(0).toUpperCase() + plain.slice(1);
  }

  return {
    ...spec,
    pathLabel,
    say,
    isRequired: (field) => spec.fields[field].required !== undefined,
  };
}

/** One line of the error summary: the field's control to go to, and what is wrong with it. */
export interface SummaryLine {
  readonly field: string;
  /** The DOM id of the field's control (the summary's link focuses it). */
  readonly target: string;
  readonly text: string;
}

/**
 * The summary of what is shown on the fields, in the form's order: "Project: Choose a project".
 * `target` is the control's id (each form names its own ids).
 */
export function errorSummary<F extends string>(
  shown: Partial<Record<F | 'form', string>>,
  words: FormWords<F>,
  target: (field: F) => string,
  prefix = '',
): SummaryLine[] {
  return (Object.keys(words.fields) as F[])
    .filter((f) => shown[f] !== undefined)
    .map((f) => ({
      field: f,
      target: target(f),
      text: `${prefix}${words.fields[f].label}: ${shown[f]}`,
    }));
}
