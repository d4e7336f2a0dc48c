/** `outbox.*`: creates queued on the device, and "Submit all". */
import type { outboxMethods } from '../../shared/contract';
import type { HandlersFor } from '../dispatch';
import type { BackendOutbox } from '../outbox';

export type OutboxHandlers = HandlersFor<keyof typeof outboxMethods>;

/** `signal`: ends with the current connection (a batch stops when the service is replaced). */
export function outboxHandlers(
  work: BackendOutbox,
  signal: () => AbortSignal | undefined,
): OutboxHandlers {
  return {
    'outbox.list': (q) => work.list(q?.states),
    'outbox.enqueue': (create) => work.enqueue(create),
    'outbox.enqueueAll': ({ creates }) => work.enqueueAll(creates),
    'outbox.edit': ({ id, input }) => work.edit(id, input),
    'outbox.retry': ({ id }) => work.retry(id),
    'outbox.cancel': ({ id }) => work.cancel(id),
    'outbox.confirm': ({ id, remoteId }) => work.confirm(id, remoteId),
    'outbox.resend': ({ id }) => work.resend(id),
    'outbox.flush': () => work.flushNow(signal()),
  };
}
