/**
 * Deterministic failures for tests and demos, chosen by markers in an order item's name
 * (documented in docs/choices-orders.md):
 *
 * - `[fail-payment]`: the order's payment is declined (order back to UNPAID, items CANCELLED).
 * - `[fail-all-tasks]`: every task of the item fails.
 * - `[fail-task:N]`: the item's task at 0-based position N fails (the marker may repeat).
 */
export const declinesPayment = (itemNames: readonly string[]): boolean =>
  itemNames.some((n) => n.includes('[fail-payment]'));

export function taskShouldFail(itemName: string, taskPosition: number): boolean {
  if (itemName.includes('[fail-all-tasks]')) return true;
  for (const m of itemName.matchAll(/\[fail-task:(\d+)\]/g)) {
    if (Number(m[1]) === taskPosition) return true;
  }
  return false;
}
