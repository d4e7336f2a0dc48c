/**
 * The contract's method and event names, without the schemas: what the sandboxed preload
 * needs to allow exactly the contract (it stays tiny, no zod). A test holds these equal to the
 * keys of `contract` and `events` in ./contract/index.ts.
 */
export const METHOD_NAMES = [
  'app.info',
  'settings.get',
  'settings.update',
  'connectivity.check',
  'mirror.clear',
  'sync.run',
  'sync.cancel',
  'sync.status',
  'catalog.search',
  'catalog.footprints',
  'catalog.cloudHistogram',
  'catalog.get',
  'savedSearches.list',
  'savedSearches.save',
  'savedSearches.remove',
  'tiles.get',
  'orders.list',
  'orderItems.list',
  'orders.quote',
  'aois.list',
  'aois.assets',
  'aois.indexMaps',
  'indices.list',
  'visualizations.list',
  'deliveries.list',
  'jobs.list',
  'created.refresh',
  'lookups.get',
  'outbox.list',
  'outbox.enqueue',
  'outbox.enqueueAll',
  'outbox.edit',
  'outbox.retry',
  'outbox.cancel',
  'outbox.confirm',
  'outbox.resend',
  'outbox.flush',
  'outbox.reviewOrders',
  'outbox.sendOrders',
  'files.preview',
  'files.export',
  'basket.list',
  'basket.add',
  'basket.remove',
  'basket.clear',
  'catalog.ordered',
  'catalog.scenes',
  'archive.searches',
  'archive.save',
  'archive.remove',
  'archive.scenes',
] as const;

export const EVENT_NAMES = [
  'connectivity.changed',
  'sync.progress',
  'sync.imagery',
  'sync.finished',
  'records.changed',
  'outbox.changed',
  'outbox.progress',
  'outbox.finished',
  'basket.changed',
] as const;

/** IPC channels between preload and main (the renderer never sees them). */
export const IPC_CALL = 'eo:call';
export const IPC_EVENT = 'eo:event';
