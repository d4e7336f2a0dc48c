/**
 * A column that replaced another on a small window (the Orders and AOIs screens show the list
 * or what is open, not both): the focus must not stay on a control that is no longer shown (it
 * would fall to the page). Moves it to the first control of the column now shown.
 */
import { nextTick } from 'vue';

const FOCUSABLE = 'button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]';

/** After the next render: if the focused element is hidden (or none is), focus `column`'s first control. */
export async function keepFocusIn(column: HTMLElement | null | undefined): Promise<void> {
  await nextTick();
  const active = document.activeElement as HTMLElement | null;
  const lost = !active || active === document.body || active.getClientRects().length === 0;
  if (!lost || !column || column.getClientRects().length === 0) return;
  column.querySelector<HTMLElement>(FOCUSABLE)?.focus();
}
