/**
 * Finding a create that may already be on the service, for services not known to honour the
 * Idempotency-Key (the reference service says it does; see `in-doubt.ts`).
 *
 * None of these resources has a client-chosen id, so the lookup matches on content, skipping
 * resources another outbox entry has already claimed; the newest match wins:
 * - an order: the same item names and projects, in the same order (GET /v0/orders);
 * - an AOI: the same name, project and archive items (GET /v0/aois?aoi_name=...);
 * - a custom index: the same name, satellite and expression (GET /v0/indices?type=custom).
 * This is a heuristic: an identical resource created by someone else after our lost attempt
 * would be taken for ours, judged better than a duplicate (a paid order, a processed AOI).
 * Visualizations, deliveries and jobs cannot be listed: in doubt, they wait `unconfirmed`.
 */
import { allItems, type EoClient } from '@eo/api-client';
import type { OutboxKind } from './kinds';

/** The kinds a lookup can find; the others have no list endpoint. */
export const LOOKUP_KINDS: readonly OutboxKind[] = ['order', 'aoi', 'index'];

interface ItemShape {
  readonly name?: unknown;
  readonly project_id?: unknown;
}

const orderShape = (items: readonly ItemShape[]) =>
  JSON.stringify(items.map((i) => [i.name ?? null, i.project_id ?? null]));

const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : v);

/** The newest item of `items` that matches and is not claimed, or undefined. */
async function newestUnclaimed<T extends { readonly id?: unknown; readonly aoi_id?: unknown }>(
  items: AsyncIterable<T>,
  matches: (item: T) => boolean,
  idOf: (item: T) => string,
  isClaimed: (remoteId: string) => boolean,
): Promise<T | undefined> {
  let found: T | undefined;
  for await (const item of items) if (matches(item) && !isClaimed(idOf(item))) found = item;
  return found;
}

export async function findCreated(
  client: EoClient,
  kind: OutboxKind,
  input: Record<string, unknown>,
  isClaimed: (remoteId: string) => boolean,
  signal?: AbortSignal,
): Promise<unknown> {
  const page = { pageSize: 500, signal };
  switch (kind) {
    case 'order': {
      if (input.dry_run === true) return undefined;
      const wanted = orderShape(input.order_items as ItemShape[]);
      return newestUnclaimed(
        allItems(client.pages.orders({}, page)),
        (o) => orderShape((o.order_items ?? []) as ItemShape[]) === wanted,
        (o) => o.id,
        isClaimed,
      );
    }
    case 'aoi': {
      const name = trimmed(input.name) as string;
      const items = JSON.stringify(input.item_ids);
      return newestUnclaimed(
        allItems(
          client.pages.aois({ aoi_name: name, project_ids: [String(input.project_id)] }, page),
        ),
        (a) =>
          a.name === name &&
          JSON.stringify((a.images as { item_ids?: unknown } | null)?.item_ids) === items,
        (a) => a.aoi_id,
        isClaimed,
      );
    }
    case 'index':
      return newestUnclaimed(
        allItems(
          client.pages.indices({ type: 'custom', satellite_id: String(input.satellite_id) }, page),
        ),
        (i) => i.name === trimmed(input.name) && i.expression === trimmed(input.expression),
        (i) => i.id,
        isClaimed,
      );
    default:
      return undefined;
  }
}
