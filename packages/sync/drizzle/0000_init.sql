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
CREATE INDEX `catalog_org_dt_desc` ON `catalog_records` (`org_id`,"datetime_us" DESC,`id`);--> statement-breakpoint
CREATE INDEX `catalog_org_collection_dt` ON `catalog_records` (`org_id`,`collection`,"datetime_us" DESC,`id`);--> statement-breakpoint
CREATE INDEX `catalog_org_item` ON `catalog_records` (`org_id`,`item_id`);--> statement-breakpoint
CREATE INDEX `catalog_org_order` ON `catalog_records` (`org_id`,`order_id`);--> statement-breakpoint
CREATE INDEX `catalog_org_order_item` ON `catalog_records` (`org_id`,`order_item_id`);--> statement-breakpoint
CREATE INDEX `catalog_task` ON `catalog_records` (`task_id`);--> statement-breakpoint
CREATE TABLE `mirror_aois` (
	`aoi_id` text PRIMARY KEY NOT NULL,
	`name` text,
	`project_id` text,
	`status` text NOT NULL,
	`created_at_us` integer,
	`updated_at_us` integer,
	`pass_id` text NOT NULL,
	`json` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mirror_aois_status` ON `mirror_aois` (`status`,`created_at_us`);--> statement-breakpoint
CREATE INDEX `mirror_aois_project` ON `mirror_aois` (`project_id`);--> statement-breakpoint
CREATE INDEX `mirror_aois_pass` ON `mirror_aois` (`pass_id`);--> statement-breakpoint
CREATE TABLE `mirror_assets` (
	`id` text PRIMARY KEY NOT NULL,
	`aoi_id` text NOT NULL,
	`asset_type` text,
	`status` text,
	`created_at_us` integer,
	`pass_id` text NOT NULL,
	`json` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mirror_assets_aoi` ON `mirror_assets` (`aoi_id`,`created_at_us`);--> statement-breakpoint
CREATE INDEX `mirror_assets_pass` ON `mirror_assets` (`pass_id`);--> statement-breakpoint
CREATE TABLE `mirror_catalog_seen` (
	`record_id` text PRIMARY KEY NOT NULL,
	`pass_id` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mirror_catalog_seen_pass` ON `mirror_catalog_seen` (`pass_id`);--> statement-breakpoint
CREATE TABLE `mirror_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`status` text,
	`created_at_us` integer NOT NULL,
	`json` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mirror_deliveries_created` ON `mirror_deliveries` (`created_at_us`);--> statement-breakpoint
CREATE TABLE `mirror_indices` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text,
	`type` text,
	`satellite_id` text,
	`pass_id` text NOT NULL,
	`json` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mirror_indices_type` ON `mirror_indices` (`type`);--> statement-breakpoint
CREATE INDEX `mirror_indices_pass` ON `mirror_indices` (`pass_id`);--> statement-breakpoint
CREATE TABLE `mirror_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`status` text,
	`created_at_us` integer NOT NULL,
	`json` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mirror_jobs_created` ON `mirror_jobs` (`created_at_us`);--> statement-breakpoint
CREATE TABLE `mirror_order_items` (
	`id` text PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`name` text,
	`project_id` text,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`created_at_us` integer,
	`pass_id` text NOT NULL,
	`json` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mirror_order_items_order` ON `mirror_order_items` (`order_id`);--> statement-breakpoint
CREATE INDEX `mirror_order_items_status_type` ON `mirror_order_items` (`status`,`type`);--> statement-breakpoint
CREATE INDEX `mirror_order_items_project` ON `mirror_order_items` (`project_id`);--> statement-breakpoint
CREATE INDEX `mirror_order_items_pass` ON `mirror_order_items` (`pass_id`);--> statement-breakpoint
CREATE TABLE `mirror_orders` (
	`id` text PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`user_id` text,
	`created_at_us` integer,
	`updated_at_us` integer,
	`pass_id` text NOT NULL,
	`json` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mirror_orders_status_created` ON `mirror_orders` (`status`,`created_at_us`);--> statement-breakpoint
CREATE INDEX `mirror_orders_created` ON `mirror_orders` (`created_at_us`);--> statement-breakpoint
CREATE INDEX `mirror_orders_pass` ON `mirror_orders` (`pass_id`);--> statement-breakpoint
CREATE TABLE `mirror_tasks` (
	`task_id` text PRIMARY KEY NOT NULL,
	`order_item_id` text NOT NULL,
	`order_id` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sync_state` (
	`resource` text PRIMARY KEY NOT NULL,
	`pass_id` text,
	`plan` text DEFAULT '' NOT NULL,
	`part` integer DEFAULT 0 NOT NULL,
	`checkpoint` integer DEFAULT 0 NOT NULL,
	`started_at_us` integer,
	`finished_at_us` integer,
	`last_complete_at_us` integer,
	`last_error_json` text,
	`seen` integer DEFAULT 0 NOT NULL,
	`total` integer,
	`removed` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`seq` integer NOT NULL,
	`kind` text NOT NULL,
	`input` text NOT NULL,
	`state` text NOT NULL,
	`depends_on` text DEFAULT '[]' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer,
	`last_error` text,
	`response` text,
	`remote_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`sent_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `outbox_seq_unique` ON `outbox` (`seq`);--> statement-breakpoint
CREATE INDEX `outbox_state_seq` ON `outbox` (`state`,`seq`);