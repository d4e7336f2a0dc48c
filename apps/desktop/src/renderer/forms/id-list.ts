/**
 * A field of several ids as the user types them (archive scene ids in the AOI form and in an
 * order item): one a line, or separated by commas or spaces.
 */

/** The ids typed in such a field, blanks dropped. */
export function splitIds(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}
