/**
 * Every table of the local database, re-exported from the folders that own them
 * (mirror/, outbox/, offline/). drizzle-kit reads this file to generate migrations.
 */
export * from '../mirror/schema';
export * from '../outbox/schema';
export * from '../offline/schema';
