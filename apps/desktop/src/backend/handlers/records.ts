/**
 * Reads of the service's records from the mirror (offline too), the values the forms offer,
 * and the two calls that need the service: a quote, and re-reading what this client created.
 */
import type { Lookups, recordsMethods } from '../../shared/contract';
import type { makeCreatedRefresh } from '../created-refresh';
import type { HandlersFor } from '../dispatch';
import { quoteOrder } from '../quote';
import type { RecordReads } from '../record-reads';

export type RecordsHandlers = HandlersFor<keyof typeof recordsMethods>;

export function recordsHandlers(deps: {
  readonly records: RecordReads;
  readonly lookups: () => Lookups;
  readonly created: ReturnType<typeof makeCreatedRefresh>;
  /** The current connection's client and the signal that ends with it; null unconfigured. */
  readonly connection: () => Parameters<typeof quoteOrder>[0];
}): RecordsHandlers {
  const { records, lookups, created } = deps;
  return {
    'orders.list': (q) => records.orders(q),
    'orderItems.list': (q) => records.orderItems(q),
    'aois.list': (q) => records.aois(q),
    'aois.assets': ({ aoiId }) => records.assets(aoiId),
    'indices.list': (q) => records.indices(q),
    'visualizations.list': () => records.visualizations(),
    'deliveries.list': () => records.deliveries(),
    'jobs.list': () => records.jobs(),
    'lookups.get': () => lookups(),
    // Online only.
    'orders.quote': (input) => quoteOrder(deps.connection(), input),
    'created.refresh': () => created.refresh(),
  };
}
