/** @eo/sync: the local mirror, offline search and the outbox. */
export { openLocalDatabase, type LocalDatabase } from './db/open';
export * from './outbox/index';
