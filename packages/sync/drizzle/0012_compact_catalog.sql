-- The catalog in @eo/catalog-store's compact layout: each record packed (`record`), its exact
-- footprint (`geometry`), platform, sun elevation and `updated` as columns, shared texts once in
-- `catalog_shared`. Hand-written (drizzle would copy the table in one statement): the records
-- already mirrored stay in `catalog_records_json` and are moved into the new table after the
-- migrations, in batches that each commit (src/db/compact-upgrade.ts), so an upgrade killed
-- halfway resumes where it stopped. Row numbers (seq) are kept: catalog_rtree and
-- catalog_footprints stay as they are.
CREATE TABLE `catalog_shared` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`text` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `catalog_shared_kind_text` ON `catalog_shared` (`kind`,`text`);--> statement-breakpoint
DROP INDEX `catalog_records_id_unique`;--> statement-breakpoint
DROP INDEX `catalog_org_dt_desc`;--> statement-breakpoint
DROP INDEX `catalog_org_collection_dt`;--> statement-breakpoint
DROP INDEX `catalog_org_item`;--> statement-breakpoint
DROP INDEX `catalog_org_order`;--> statement-breakpoint
DROP INDEX `catalog_org_order_item`;--> statement-breakpoint
DROP INDEX `catalog_task`;--> statement-breakpoint
ALTER TABLE `catalog_records` RENAME TO `catalog_records_json`;--> statement-breakpoint
CREATE TABLE `catalog_records` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`org_id` text NOT NULL,
	`task_id` text,
	`order_item_id` text,
	`order_id` text,
	`item_id` text NOT NULL,
	`collection` text,
	`datetime_us` integer,
	`cloud_cover` real,
	`off_nadir` real,
	`gsd` real,
	`min_lon` real,
	`min_lat` real,
	`max_lon` real,
	`max_lat` real,
	`created_at_us` integer NOT NULL,
	`updated_at_us` integer NOT NULL,
	`platform` text,
	`sun_elevation` real,
	`item_updated_us` integer,
	`geometry` blob,
	`record` blob NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `catalog_records_id_unique` ON `catalog_records` (`id`);--> statement-breakpoint
CREATE INDEX `catalog_org_dt_desc` ON `catalog_records` (`org_id`,"datetime_us" DESC,`id`);--> statement-breakpoint
CREATE INDEX `catalog_org_collection_dt` ON `catalog_records` (`org_id`,`collection`,"datetime_us" DESC,`id`);--> statement-breakpoint
CREATE INDEX `catalog_org_item` ON `catalog_records` (`org_id`,`item_id`);--> statement-breakpoint
CREATE INDEX `catalog_org_order` ON `catalog_records` (`org_id`,`order_id`);--> statement-breakpoint
CREATE INDEX `catalog_org_order_item` ON `catalog_records` (`org_id`,`order_item_id`);--> statement-breakpoint
CREATE INDEX `catalog_task` ON `catalog_records` (`task_id`);--> statement-breakpoint
-- Seen marks as one B-tree keyed by record id (WITHOUT ROWID), without the pass index.
CREATE TABLE `mirror_catalog_seen_compact` (
	`record_id` text PRIMARY KEY NOT NULL,
	`pass_id` text NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `mirror_catalog_seen_compact` (`record_id`, `pass_id`)
  SELECT `record_id`, `pass_id` FROM `mirror_catalog_seen`;--> statement-breakpoint
DROP TABLE `mirror_catalog_seen`;--> statement-breakpoint
ALTER TABLE `mirror_catalog_seen_compact` RENAME TO `mirror_catalog_seen`;
