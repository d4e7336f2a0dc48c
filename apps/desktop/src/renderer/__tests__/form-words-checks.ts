/**
 * What every create form must do with its errors (issue 17, item 14), checked on a mounted
 * form: nothing is said before the user acts; required fields are marked (a visible mark and
 * `aria-required`); a refused submit lists what to correct at the top in the form's words (no
 * API field names), each line a link that focuses its field, and the focus is on the first.
 */
import { flushPromises, type DOMWrapper } from '@vue/test-utils';
import { expect } from 'vitest';

/** An API field name (`project_id`, `order_item_ids`, `start_date`) in a text. */
const API_NAME = /\b[a-z]+(?:_[a-z]+)+\b/;

/** Before the user did anything: no message, no invalid control, no summary. */
export function expectQuiet(form: DOMWrapper<Element>): void {
  expect(form.findAll('[aria-invalid="true"]')).toHaveLength(0);
  expect(form.find('[data-test="error-summary"]').exists()).toBe(false);
  const said = form
    .findAll('[id$="-error"], [role="alert"]')
    .map((e) => e.text())
    .filter((t) => t !== '');
  expect(said).toEqual([]);
}

/** The ids of the controls marked required (each also shows the visible mark). */
export function requiredControls(form: DOMWrapper<Element>): string[] {
  const ids = form.findAll('[aria-required="true"]').map((e) => e.attributes('id') ?? '');
  for (const id of ids) {
    const label = form.find(`label[for="${id}"]`);
    expect(label.text(), `${id} has no visible required mark`).toMatch(/\*$/);
  }
  return ids;
}

/**
 * Submits the empty form: the summary names fields by their labels, says nothing in API
 * words, the focus is on the first listed field, and each link takes the focus to its own.
 * Returns the summary's lines.
 */
export async function expectSummaryOnSubmit(
  form: DOMWrapper<Element>,
  submit: () => Promise<unknown>,
): Promise<string[]> {
  await submit();
  await flushPromises();
  const summary = form.find('[data-test="error-summary"]');
  expect(summary.exists(), 'no error summary after the submit').toBe(true);
  const links = summary.findAll('a');
  const lines = links.map((a) => a.text());
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) expect(line).not.toMatch(API_NAME);
  for (const message of form.findAll('[id$="-error"]').map((e) => e.text())) {
    expect(message).not.toMatch(API_NAME);
  }
  const targetOf = (i: number) => links[i]!.attributes('href')!.slice(1);
  const inTarget = (i: number) => {
    const target = document.getElementById(targetOf(i));
    return target !== null && target.contains(document.activeElement);
  };
  expect(inTarget(0), `the focus is not on ${targetOf(0)}`).toBe(true);
  const last = links.length - 1;
  await links[last]!.trigger('click');
  expect(inTarget(last), `the link did not focus ${targetOf(last)}`).toBe(true);
  return lines;
}
