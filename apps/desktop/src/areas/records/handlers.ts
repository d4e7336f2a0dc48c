/**
 * Reads of the service's records from the mirror (offline too), the values the forms offer,
 * and the two calls that need the service: a quote, and re-reading what this client created.
 */
import type { Lookups, Output, recordsMethods } from '../../shared/contract';
import type { makeCreatedRefresh } from '../../backend/created-refresh';
import type { HandlersFor } from '../../backend/dispatch';
import type { NoService } from '../../backend/no-service';
import { jobResults } from '../../backend/job-results';
import { estimateJob, quoteOrder } from '../../backend/quote';
import type { RecordReads } from '../../backend/record-reads';

export type RecordsHandlers = HandlersFor<keyof typeof recordsMethods>;

export function recordsHandlers(deps: {
  readonly records: RecordReads;
  readonly lookups: () => Lookups;
  readonly created: ReturnType<typeof makeCreatedRefresh>;
  /** The current connection's client and the signal that ends with it; null unconfigured. */
  readonly connection: () => Parameters<typeof jobResults>[0];
  /** Why there is no connection ("Work offline", or not set up). */
  readonly noService?: NoService;
  /** Hears every quote the service gave (the price book: an order's price when queued). */
  readonly onQuoted?: (input: unknown, order: Output<'orders.quote'>) => void;
}): RecordsHandlers {
  const { records, lookups, created } = deps;
  return {
    'orders.list': (q) => records.orders(q),
    'orderItems.list': (q) => records.orderItems(q),
    'aois.list': (q) => records.aois(q),
    'aois.assets': ({ aoiId }) => records.assets(aoiId),
    'aois.indexMaps': ({ aoiId }) => records.indexMaps(aoiId),
    'indices.list': (q) => records.indices(q),
    'visualizations.list': () => records.visualizations(),
    'deliveries.list': () => records.deliveries(),
    'jobs.list': () => records.jobs(),
    'lookups.get': () => lookups(),
    // Online only.
    'orders.quote': async (input) => {
      const order = await quoteOrder(deps.connection(), input, deps.noService);
      deps.onQuoted?.(input, order);
      return order;
    },
    'jobs.estimate': (input) => estimateJob(deps.connection(), input, deps.noService),
    'jobs.results': ({ jobId }) =>
      jobResults(
        deps.connection(),
        records.jobs().find((j) => j.id === jobId),
        jobId,
        deps.noService,
      ),
    'created.refresh': () => created.refresh(),
  };
}
