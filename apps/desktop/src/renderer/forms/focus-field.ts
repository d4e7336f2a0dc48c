/**
 * Takes the focus to a field by its control's id: the control itself, or a group's first
 * control (radios, checkboxes, the buttons of an area), or the group when it has none yet.
 * The error summary's links and a refused submit use it.
 */
import { nextTick } from 'vue';
import type { SummaryLine } from './form-words';

export function focusField(target: string): void {
  const el = document.getElementById(target);
  if (!el) return;
  const control = el.matches('input, select, textarea, button, [tabindex]')
    ? el
    : el.querySelector<HTMLElement>('input, select, textarea, button');
  if (control) return control.focus();
  el.tabIndex = -1;
  el.focus();
}

/** After a refused submit: the focus goes to the first field the summary lists (once drawn). */
export async function focusFirstProblem(lines: readonly SummaryLine[]): Promise<void> {
  const first = lines[0];
  if (!first) return;
  await nextTick();
  focusField(first.target);
}
