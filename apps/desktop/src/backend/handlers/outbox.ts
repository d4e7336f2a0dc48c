/** `outbox.*`: creates queued on the device, and "Submit all". */
import type { outboxMethods } from '../../shared/contract';
import type { HandlersFor } from '../dispatch';
import type { BackendOutbox } from '../outbox';
import type { OrderReview } from '../../shared/contract';

export type OutboxHandlers = HandlersFor<keyof typeof outboxMethods>;

/** `signal`: ends with the current connection (a batch stops when the service is replaced). */
export function outboxHandlers(
  work: BackendOutbox,
  signal: () => AbortSignal | undefined,
  reviewOrders: () => Promise<OrderReview>,
  /** Quotes the confirmed orders again: throws, nothing sent, unless each is at its total. */
  confirmPrices: (orders: ReadonlyArray<{ id: string; total: number }>) => Promise<void>,
): OutboxHandlers {
  return {
    'outbox.list': (q) => work.list(q?.states),
    'outbox.enqueue': (create) => work.enqueue(create),
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
