/** `outbox.*`: creates queued on the device, and "Submit all". */
import type { outboxMethods } from '../../shared/contract';
import type { HandlersFor } from '../../backend/dispatch';
import type { BackendOutbox } from '../../backend/outbox';
import type { OrderReview } from '../../shared/contract';

export type OutboxHandlers = HandlersFor<keyof typeof outboxMethods>;

/**
 * `signal`: ends with the current connection (a batch stops when the service is replaced).
 * `onQueued`: a create was queued (the basket takes out what it consumed).
 */
export function outboxHandlers(
  work: BackendOutbox,
  signal: () => AbortSignal | undefined,
  reviewOrders: () => Promise<OrderReview>,
  /** Quotes the confirmed orders again: throws, nothing sent, unless each is at its total. */
  confirmPrices: (orders: ReadonlyArray<{ id: string; total: number }>) => Promise<void>,
  onQueued: (create: { kind: string; input: unknown }) => void = () => undefined,
): OutboxHandlers {
  return {
    'outbox.list': (q) => work.list(q?.states),
    'outbox.enqueue': async (create) => {
      const entry = await work.enqueue(create);
      onQueued(create);
      return entry;
    },
    'outbox.enqueueAll': async ({ creates }) => {
      const entries = await work.enqueueAll(creates);
      for (const create of creates) onQueued(create);
      return entries;
    },
    'outbox.edit': ({ id, input }) => work.edit(id, input),
    'outbox.retry': ({ id }) => work.retry(id),
    'outbox.cancel': ({ id }) => work.cancel(id),
    'outbox.confirm': ({ id, remoteId }) => work.confirm(id, remoteId),
    'outbox.resend': ({ id }) => work.resend(id),
    'outbox.flush': () => work.flushNow(signal()),
    'outbox.reviewOrders': () => reviewOrders(),
    'outbox.sendOrders': async ({ orders }) => {
      work.checkReviewed(orders);
      await confirmPrices(orders);
      return work.sendOrders(orders, signal());
    },
  };
}
