/**
 * The known ids nearest to a typed one, for "did you mean" (the CLI's `eo outbox add` warning
 * and the desktop forms' unknown-id note): edit distance to each choice's id or name,
 * case-insensitive. Ids and names are short: the plain two-row table.
 */

/** A known id and, when its list gives one, its name. */
export interface NamedId {
  readonly id: string;
  readonly name: string | null;
}

/** The `count` known choices whose id or name is nearest to `id` (ties in list order). */
export function nearestChoices(id: string, choices: readonly NamedId[], count = 3): NamedId[] {
  const target = id.toLowerCase();
  const score = (c: NamedId) =>
    Math.min(
      editDistance(target, c.id.toLowerCase()),
      c.name === null ? Infinity : editDistance(target, c.name.toLowerCase()),
    );
  return choices
    .map((c, order) => ({ c, order, d: score(c) }))
    .sort((a, b) => a.d - b.d || a.order - b.order)
    .slice(0, count)
    .map((x) => ({ id: x.c.id, name: x.c.name }));
}

/** Levenshtein distance. */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(
        prev[j]! + 1,
        row[j - 1]! + 1,
        prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    prev = row;
  }
  return prev[b.length]!;
}
