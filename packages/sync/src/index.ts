/** @eo/sync: the local mirror, offline search and the outbox. */
export { openLocalDatabase, type LocalDatabase } from './db/open';
export * from './outbox/index';
export { checkConnectivity, type ConnectivityCheck, type ConnectivityStatus } from './connectivity';
export {
  watchConnectivity,
  type ConnectivityWatcher,
  type FlushTarget,
} from './connectivity-watcher';
