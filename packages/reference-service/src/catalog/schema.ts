// The catalog records table and its footprints (the map's rings) are defined by @eo/catalog-store (shared with the offline mirror);
// re-exported here so the server's drizzle schema, and so its migrations, include it.
export { catalogRecords, catalogFootprints } from '@eo/catalog-store';
