/**
 * `catalog_unpacked`: the rows whose record a writer stored as its text (`storeRecordText`)
 * for `compact/packing.ts` to pack later. An entry may outlive its reason (the row was deleted,
 * or written packed since): the packer checks the row's blob and drops such entries.
 */
import { integer, sqliteTable } from 'drizzle-orm/sqlite-core';

export const catalogUnpacked = sqliteTable('catalog_unpacked', {
  seq: integer('seq').primaryKey(),
});
