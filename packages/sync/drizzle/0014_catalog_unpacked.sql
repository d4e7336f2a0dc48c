-- The rows whose record a sync stored as its text, to be packed when the app is idle
-- (@eo/catalog-store `compact/packing.ts`). Empty at first: every record of an existing mirror
-- is packed already.
CREATE TABLE `catalog_unpacked` (
	`seq` integer PRIMARY KEY NOT NULL
);
