/** Writes of catalog records live in @eo/catalog-store (shared with the offline mirror). */
export { makeCatalogInserter, type CatalogLinks, type CatalogRecordOut } from '@eo/catalog-store';
