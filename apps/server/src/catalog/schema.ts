// The catalog records table is defined by @eo/catalog-store (shared with the offline mirror);
// re-exported here so the server's drizzle schema, and so its migrations, include it.
export { catalogRecords } from '@eo/catalog-store';
