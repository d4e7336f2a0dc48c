/**
 * The contract's method and event names, without the schemas: what the sandboxed preload
 * needs to allow exactly the contract (it stays tiny, no zod). A test holds these equal to the
 * keys of `contract` and `events` in ./contract.ts.
 */
export const METHOD_NAMES = [
  'app.info',
  'settings.get',
  'settings.update',
  'mirror.clear',
  'connectivity.check',
  'sync.run',
  'sync.cancel',
  'sync.status',
  'catalog.search',
  'catalog.footprints',
  'catalog.get',
  'savedSearches.list',
  'savedSearches.save',
  'savedSearches.remove',
  'tiles.get',
] as const;

export const EVENT_NAMES = [
  'sync.progress',
  'sync.finished',
  'connectivity.changed',
  'outbox.changed',
] as const;

/** IPC channels between preload and main (the renderer never sees them). */
export const IPC_CALL = 'eo:call';
export const IPC_EVENT = 'eo:event';
