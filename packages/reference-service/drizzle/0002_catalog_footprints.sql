CREATE TABLE `catalog_footprints` (
	`seq` integer PRIMARY KEY NOT NULL,
	`ring` blob NOT NULL
);
--> statement-breakpoint
-- Backfill (hand-written): the ring of every record already stored, exactly as the writers of
-- @eo/catalog-store store it. eo_footprint_ring is that package's installFootprintFunction,
-- installed on the connection before migrating.
INSERT INTO `catalog_footprints` (`seq`, `ring`)
  SELECT `seq`, `ring` FROM (
    SELECT `seq`, eo_footprint_ring(`record_json` -> '$.details.geometry',
      `min_lon`, `min_lat`, `max_lon`, `max_lat`) AS `ring`
    FROM `catalog_records`)
  WHERE `ring` IS NOT NULL;
