DROP INDEX `catalog_org_dt`;--> statement-breakpoint
CREATE INDEX `catalog_org_dt_desc` ON `catalog_records` (`org_id`,"datetime_us" DESC,`id`);--> statement-breakpoint
CREATE INDEX `catalog_org_collection_dt` ON `catalog_records` (`org_id`,`collection`,"datetime_us" DESC,`id`);