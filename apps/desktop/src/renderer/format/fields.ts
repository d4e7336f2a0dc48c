/**
 * Field paths of validation messages in words: `order_items.0.name` reads "order items #1 ›
 * name", the whole request reads "the request". Shared by the outbox (the service's field
 * details) and the forms (messages the form cannot place beside a field).
 */
export function plainPath(path: string): string {
  const parts = path.split('.').filter((p) => p !== '');
  if (parts.length === 0) return 'the request';
  const words: string[] = [];
  for (const p of parts) {
    if (/^\d+$/.test(p)) {
      const n = `#${Number(p) + 1}`;
      if (words.length > 0) words[words.length - 1] += ` ${n}`;
      else words.push(n);
    } else {
      words.push(p.replace(/_/g, ' '));
    }
  }
  return words.join(' › ');
}

/** "name: name is required" -> one line a person reads. */
export function plainProblem(problem: { path: string; message: string }): string {
  return `${plainPath(problem.path)}: ${problem.message}`;
}
