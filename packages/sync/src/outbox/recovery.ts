/**
 * Finding a create that may already be on the service, for services that ignore the
 * Idempotency-Key (the reference service honours it; this path is opt-in).
 *
 * An order has no client-chosen id, so the lookup matches on content: an order whose items
 * carry the same names and projects, in the same order, that no other outbox entry has already
 * claimed. The newest such order wins. This is a heuristic: an identical order placed by someone
 * else after our lost attempt would be taken for ours, which is judged better than a duplicate
 * paid order.
 */
import { allItems, type EoClient } from '@eo/api-client';

interface ItemShape {
  readonly name?: unknown;
  readonly project_id?: unknown;
}

const shapeOf = (items: readonly ItemShape[]) =>
  JSON.stringify(items.map((i) => [i.name ?? null, i.project_id ?? null]));

export async function findCreatedOrder(
  client: EoClient,
  input: Record<string, unknown>,
  isClaimed: (orderId: string) => boolean,
  signal?: AbortSignal,
): Promise<unknown> {
  const wanted = shapeOf(input.order_items as ItemShape[]);
  let found: unknown;
  for await (const order of allItems(client.pages.orders({}, { pageSize: 500, signal }))) {
    const items = (order.order_items ?? []) as ItemShape[];
    if (shapeOf(items) === wanted && !isClaimed(order.id)) found = order;
  }
  return found;
}
