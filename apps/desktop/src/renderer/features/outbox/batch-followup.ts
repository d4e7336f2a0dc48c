/**
 * What a batch created, followed after the batch (issue 17): a created order item, AOI,
 * delivery, job or visualization may fail later on the service (an infeasible or unpaid item,
 * a failed delivery). "8 created" is not the end of the story: the notification says which
 * failed since, once each, from the mirrored records (read again on `records.changed` and
 * `sync.finished`). An order also says how it moves on (issue 26): paid, its items completed.
 */
import type { OutboxKind } from '@eo/domain';
import type { Bridge, OutboxEntryView } from '../../../shared/contract';
import { formatCode, validationErrorText } from '../../format/records';
import { formatCount } from '../../format/units';

/** A create the service took, followed until it is reported failed. */
export interface Followed {
  readonly id: string;
  readonly kind: OutboxKind;
  /** The created resource's id (deliveries: comma-separated). */
  readonly remoteId: string;
  readonly summary: string;
}

export interface LaterFailure {
  /** Unique per failed record: `<entry id>:<record id>`. */
  readonly key: string;
  readonly summary: string;
  readonly message: string;
}

/** Kinds whose records can fail after they were created (indices cannot). */
const FOLLOWED_KINDS: readonly OutboxKind[] = ['order', 'aoi', 'delivery', 'job', 'visualization'];

export function followedOf(e: OutboxEntryView): Followed | null {
  if (e.state !== 'sent' || !e.remoteId || !FOLLOWED_KINDS.includes(e.kind)) return null;
  return { id: e.id, kind: e.kind, remoteId: e.remoteId, summary: e.summary };
}

const ORDER_ITEM_FAILED = ['FAILED', 'CANCELLED'];

/** The records of `followed` that failed, with why when the record says it. */
export async function laterFailures(
  bridge: Pick<Bridge, 'call'>,
  followed: readonly Followed[],
): Promise<LaterFailure[]> {
  const of = (kind: OutboxKind) => followed.filter((f) => f.kind === kind);
  const out: LaterFailure[] = [];
  const orders = of('order');
  if (orders.length) {
    const byOrder = new Map(orders.map((f) => [f.remoteId, f]));
    const items = await bridge.call('orderItems.list', { orderIds: [...byOrder.keys()] });
    for (const item of items) {
      const f = byOrder.get(item.order_id ?? '');
      if (!f || !ORDER_ITEM_FAILED.includes(item.status ?? '')) continue;
      const why = (item.validation_errors ?? []).map(validationErrorText).join('; ');
      out.push({
        key: `${f.id}:${item.id}`,
        summary: `Order item “${item.name ?? item.id}”`,
        message: `${item.status === 'CANCELLED' ? 'cancelled' : 'failed'}${why ? `: ${why}` : ''}`,
      });
    }
  }
  const aois = of('aoi');
  if (aois.length) {
    const byId = new Map(aois.map((f) => [f.remoteId, f]));
    for (const a of await bridge.call('aois.list', {})) {
      const f = byId.get(a.aoi_id);
      if (f && a.status === 'failed')
        out.push({ key: `${f.id}:${a.aoi_id}`, summary: f.summary, message: 'failed' });
    }
  }
  const deliveries = of('delivery');
  if (deliveries.length) {
    const byId = new Map(
      deliveries.flatMap((f) => f.remoteId.split(',').map((id) => [id, f] as const)),
    );
    for (const d of await bridge.call('deliveries.list')) {
      const f = byId.get(d.delivery_id);
      if (f && d.status === 'FAILED') {
        const what = d.catalog_id ?? d.task_id ?? d.delivery_id;
        out.push({
          key: `${f.id}:${d.delivery_id}`,
          summary: f.summary,
          message: `the delivery of ${what} failed`,
        });
      }
    }
  }
  const jobs = of('job');
  if (jobs.length) {
    const byId = new Map(jobs.map((f) => [f.remoteId, f]));
    for (const j of await bridge.call('jobs.list')) {
      const f = byId.get(j.id);
      if (!f || j.status !== 'FAILED') continue;
      const why = [
        ...(j.tasks ?? []).map((t) => t.err_msg).filter(Boolean),
        ...(j.val_errors ?? []).map((v) => v.reason ?? v.err).filter(Boolean),
      ].join('; ');
      out.push({
        key: `${f.id}:${j.id}`,
        summary: f.summary,
        message: `failed${why ? `: ${why}` : ''}`,
      });
    }
  }
  const visualizations = of('visualization');
  if (visualizations.length) {
    const byId = new Map(visualizations.map((f) => [f.remoteId, f]));
    for (const v of await bridge.call('visualizations.list')) {
      const f = byId.get(v.id);
      if (f && v.status === 'failed')
        out.push({ key: `${f.id}:${v.id}`, summary: f.summary, message: 'failed' });
    }
  }
  return out;
}

/** A followed order as the mirror has it now: its payment and its items in words. */
export interface OrderState {
  /** The outbox entry's id. */
  readonly key: string;
  readonly summary: string;
  /** "Paid · 2 items: 1 completed, 1 active". */
  readonly state: string;
}

/** An order's payment and its items' statuses in words. */
export function orderStateText(
  order: { readonly status?: string | null },
  items: ReadonlyArray<{ readonly status?: string | null }>,
): string {
  const counts = new Map<string, number>();
  for (const i of items) {
    const words = formatCode(i.status).toLowerCase();
    counts.set(words, (counts.get(words) ?? 0) + 1);
  }
  const n = items.length;
  const noun = `${formatCount(n)} item${n === 1 ? '' : 's'}`;
  const parts = [...counts].map(([words, k]) => (counts.size === 1 ? words : `${k} ${words}`));
  const itemsText = n === 0 ? '' : ` · ${noun}${counts.size === 1 ? ' ' : ': '}${parts.join(', ')}`;
  return `${formatCode(order.status)}${itemsText}`;
}

/** The followed orders the mirror holds, with their state now. */
export async function orderStates(
  bridge: Pick<Bridge, 'call'>,
  followed: readonly Followed[],
): Promise<OrderState[]> {
  const orders = followed.filter((f) => f.kind === 'order');
  if (orders.length === 0) return [];
  const ids = orders.map((f) => f.remoteId);
  const [list, items] = await Promise.all([
    bridge.call('orders.list', { ids }),
    bridge.call('orderItems.list', { orderIds: ids }),
  ]);
  const byId = new Map(list.map((o) => [o.id, o]));
  return orders.flatMap((f) => {
    const order = byId.get(f.remoteId);
    if (!order) return [];
    const own = items.filter((i) => i.order_id === f.remoteId);
    return [{ key: f.id, summary: f.summary, state: orderStateText(order, own) }];
  });
}
