CREATE TABLE `downloads` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`org_id` text NOT NULL,
	`aoi_id` text,
	`requested_field` text NOT NULL,
	`requested_ids_json` text NOT NULL,
	`status` text NOT NULL,
	`reason` text,
	`scenes_json` text,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `downloads_id_unique` ON `downloads` (`id`);--> statement-breakpoint
CREATE INDEX `downloads_org_created` ON `downloads` (`org_id`,`created_at`,`id`);