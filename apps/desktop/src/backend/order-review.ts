/**
 * Queued orders are reviewed before they leave (issue 17): each is quoted by the service now
 * and shown beside the price known when it was queued, and only the confirmed ones go
 * (`outbox.sendOrders`).
 *
 * The price known when it was queued is the service's own answer, never the page's word: the
 * backend remembers the last quotes it relayed (`orders.quote`, the composer's "Preview price")
 * by their items, and when an order with those very items is queued (or a queued one saved),
 * that quote is kept with the entry in the desktop store. An order queued without a preview
 * (offline) has none: "not priced when queued".
 */
import type { OpenCreateOrderRequest, Order } from '@eo/domain';
import type { Mirror, OutboxEntry } from '@eo/sync';
import {
  ContractError,
  type OrderReview,
  type QuotedPrice,
  type ReviewedOrder,
} from '../shared/contract';
import type { DesktopStore } from './local-store';
import type { OutboxViews } from './outbox-view';

/** Quotes remembered for the next enqueue: a composer previews a few, then queues one. */
const RECENT_QUOTES = 50;
/** Quotes asked at once during a review: the service answers each in milliseconds. */
const REVIEW_CONCURRENCY = 4;

/** JSON with object keys sorted: the same items give the same key, whatever their key order. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** What identifies an order's price: its items (not `dry_run`). */
export const orderKey = (input: unknown): string =>
  canonical((input as { order_items?: unknown } | null)?.order_items ?? null);

export function makePriceBook(
  store: Pick<DesktopStore, 'composedPrice' | 'saveComposedPrice'>,
  now: () => Date = () => new Date(),
) {
  const recent = new Map<string, QuotedPrice>();
  return {
    /** The service quoted these items (a preview the page asked for). */
    quoted(input: unknown, order: Pick<Order, 'total_amount'>): void {
      if (typeof order.total_amount !== 'number') return;
      const key = orderKey(input);
      recent.delete(key);
      recent.set(key, { total: order.total_amount, quotedAt: now().toISOString() });
      if (recent.size > RECENT_QUOTES) recent.delete(recent.keys().next().value!);
    },
    /** An order was queued or its queued input saved: keep the quote of exactly those items. */
    queued(entry: Pick<OutboxEntry, 'id' | 'kind' | 'input'>): void {
      if (entry.kind !== 'order') return;
      store.saveComposedPrice(entry.id, recent.get(orderKey(entry.input)) ?? null);
    },
    composed: (entryId: string): QuotedPrice | null => store.composedPrice(entryId),
  };
}

export type PriceBook = ReturnType<typeof makePriceBook>;

/** The items' names of a queued order, in order. */
function itemNames(input: Record<string, unknown>): string[] {
  const items = Array.isArray(input['order_items']) ? (input['order_items'] as unknown[]) : [];
  return items.map((i) => {
    const name = (i as { name?: unknown } | null)?.name;
    return typeof name === 'string' && name !== '' ? name : '(unnamed)';
  });
}

/** Runs `fn` on every item, at most `limit` at a time, answers in the items' order. */
async function pooled<T, R>(items: readonly T[], limit: number, fn: (t: T) => Promise<R>) {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const k = next++;
      out[k] = await fn(items[k]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export function makeOrderReview(deps: {
  readonly queued: () => OutboxEntry[];
  readonly views: Pick<OutboxViews, 'view' | 'summary'>;
  readonly prices: PriceBook;
  /** The service's dry run of one order; throws a ContractError saying why it failed. */
  readonly quote: (input: OpenCreateOrderRequest) => Promise<Order>;
  readonly now?: () => Date;
}) {
  return async function review(): Promise<OrderReview> {
    const quotedAt = (deps.now ?? (() => new Date()))().toISOString();
    const queued = deps.queued();
    const orders = queued.filter((e) => e.kind === 'order');
    const reviewed = await pooled(orders, REVIEW_CONCURRENCY, async (entry) => {
      let quote: Order | null = null;
      let problem: ReviewedOrder['problem'] = null;
      try {
        quote = await deps.quote(entry.input as OpenCreateOrderRequest);
      } catch (e) {
        if (!(e instanceof ContractError)) throw e;
        const issues = e.details?.issues?.map((i) => ({ path: i.path, message: i.message }));
        problem = { code: e.code, message: e.message, ...(issues?.length ? { issues } : {}) };
      }
      return {
        id: entry.id,
        updatedAt: deps.views.view(entry).updatedAt,
        summary: deps.views.summary(entry),
        names: itemNames(entry.input),
        composed: deps.prices.composed(entry.id),
        quote,
        problem,
        dependents: queued.filter((d) => d.dependsOn.includes(entry.id)).length,
      };
    });
    return { quotedAt, orders: reviewed };
  };
}

/**
 * The confirmation holds for the price confirmed: each order is quoted again just before it is
 * sent, and if one's price is not the total the user saw (to the cent), or it cannot be priced
 * now, nothing is sent and the user reviews again.
 */
export function makePriceConfirmation(deps: {
  readonly get: (id: string) => OutboxEntry | undefined;
  readonly views: Pick<OutboxViews, 'summary'>;
  readonly quote: (input: OpenCreateOrderRequest) => Promise<Order>;
}) {
  const cents = (v: number) => Math.round(v * 100);
  return async function confirmPrices(
    confirmed: ReadonlyArray<{ id: string; total: number }>,
  ): Promise<void> {
    for (const c of confirmed) {
      const entry = deps.get(c.id);
      // Not a queued order: `sendOrders` refuses it with its own reason.
      if (!entry || entry.kind !== 'order' || entry.state !== 'queued') continue;
      const what = deps.views.summary(entry);
      let now: number | null | undefined;
      try {
        now = (await deps.quote(entry.input as OpenCreateOrderRequest)).total_amount;
      } catch (e) {
        if (!(e instanceof ContractError)) throw e;
        throw new ContractError(
          e.code === 'invalid_argument' ? 'conflict' : e.code,
          `${what} cannot be priced now (${e.message}). Nothing was sent.`,
        );
      }
      if (typeof now !== 'number' || cents(now) !== cents(c.total)) {
        throw new ContractError(
          'conflict',
          `The price of ${what} changed since you confirmed it (${c.total.toFixed(2)}, now ${typeof now === 'number' ? now.toFixed(2) : 'unknown'}): review the orders again. Nothing was sent.`,
        );
      }
    }
  };
}

/** The review of the queued orders and the confirmation of their prices, both quoting now. */
export function makeQueuedOrderPricing(deps: {
  readonly outbox: Pick<Mirror['outbox'], 'list' | 'get'>;
  readonly views: Pick<OutboxViews, 'view' | 'summary'>;
  readonly prices: PriceBook;
  readonly quote: (input: OpenCreateOrderRequest) => Promise<Order>;
}) {
  const { outbox, views, prices, quote } = deps;
  return {
    review: makeOrderReview({
      queued: () => outbox.list({ states: ['queued'] }),
      views,
      prices,
      quote,
    }),
    confirm: makePriceConfirmation({ get: (id) => outbox.get(id), views, quote }),
  };
}
