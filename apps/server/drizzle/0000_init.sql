CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`key_hash` text NOT NULL,
	`key_prefix` text NOT NULL,
	`org_id` text NOT NULL,
	`user_id` text NOT NULL,
	`label` text,
	`created_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_key_hash_unique` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE TABLE `organizations` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `projects` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `projects_org` ON `projects` (`org_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`org_id` text NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`org_id`) REFERENCES `organizations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `users_org` ON `users` (`org_id`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`org_id` text NOT NULL,
	`key` text NOT NULL,
	`endpoint` text NOT NULL,
	`request_hash` text NOT NULL,
	`status_code` integer NOT NULL,
	`response_json` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`org_id`, `key`)
);
--> statement-breakpoint
CREATE TABLE `work_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`ref_id` text NOT NULL,
	`due_at` integer NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_error` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `work_items_due` ON `work_items` (`due_at`);--> statement-breakpoint
CREATE TABLE `indices` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`org_id` text,
	`user_id` text,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`expression` text NOT NULL,
	`expression_type` text NOT NULL,
	`type` text NOT NULL,
	`rescale_json` text NOT NULL,
	`colormap` text NOT NULL,
	`satellite_id` text NOT NULL,
	`bands_json` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `indices_id_unique` ON `indices` (`id`);--> statement-breakpoint
CREATE INDEX `indices_org` ON `indices` (`org_id`,`seq`);--> statement-breakpoint
CREATE TABLE `archive_scenes` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`collection_id` text NOT NULL,
	`satellite_id` text NOT NULL,
	`datetime_us` integer NOT NULL,
	`cloud_cover` real NOT NULL,
	`off_nadir` real NOT NULL,
	`gsd` real NOT NULL,
	`sun_elevation` real NOT NULL,
	`sun_azimuth` real NOT NULL,
	`min_lon` real NOT NULL,
	`min_lat` real NOT NULL,
	`max_lon` real NOT NULL,
	`max_lat` real NOT NULL,
	`feature_json` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `archive_scenes_id_unique` ON `archive_scenes` (`id`);--> statement-breakpoint
CREATE INDEX `archive_collection_dt` ON `archive_scenes` (`collection_id`,`datetime_us`,`seq`);--> statement-breakpoint
CREATE INDEX `archive_satellite_dt` ON `archive_scenes` (`satellite_id`,`datetime_us`,`seq`);--> statement-breakpoint
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
	`record_json` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `catalog_records_id_unique` ON `catalog_records` (`id`);--> statement-breakpoint
CREATE INDEX `catalog_org_dt` ON `catalog_records` (`org_id`,`datetime_us`,`id`);--> statement-breakpoint
CREATE INDEX `catalog_org_item` ON `catalog_records` (`org_id`,`item_id`);--> statement-breakpoint
CREATE INDEX `catalog_org_order` ON `catalog_records` (`org_id`,`order_id`);--> statement-breakpoint
CREATE INDEX `catalog_org_order_item` ON `catalog_records` (`org_id`,`order_item_id`);--> statement-breakpoint
CREATE INDEX `catalog_task` ON `catalog_records` (`task_id`);