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
CREATE INDEX `catalog_org_dt_desc` ON `catalog_records` (`org_id`,"datetime_us" DESC,`id`);--> statement-breakpoint
CREATE INDEX `catalog_org_collection_dt` ON `catalog_records` (`org_id`,`collection`,"datetime_us" DESC,`id`);--> statement-breakpoint
CREATE INDEX `catalog_org_item` ON `catalog_records` (`org_id`,`item_id`);--> statement-breakpoint
CREATE INDEX `catalog_org_order` ON `catalog_records` (`org_id`,`order_id`);--> statement-breakpoint
CREATE INDEX `catalog_org_order_item` ON `catalog_records` (`org_id`,`order_item_id`);--> statement-breakpoint
CREATE INDEX `catalog_task` ON `catalog_records` (`task_id`);--> statement-breakpoint
CREATE TABLE `aois` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`org_id` text NOT NULL,
	`user_id` text NOT NULL,
	`project_id` text NOT NULL,
	`satellite_id` text NOT NULL,
	`provider` text NOT NULL,
	`name` text NOT NULL,
	`name_lower` text NOT NULL,
	`description` text NOT NULL,
	`geometry_json` text NOT NULL,
	`item_ids_json` text NOT NULL,
	`eo_bands_json` text NOT NULL,
	`area_sq_m` real NOT NULL,
	`centroid_lon` real NOT NULL,
	`centroid_lat` real NOT NULL,
	`scene_status` text NOT NULL,
	`status` text NOT NULL,
	`progress` integer NOT NULL,
	`is_favourite` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `aois_id_unique` ON `aois` (`id`);--> statement-breakpoint
CREATE INDEX `aois_org_seq` ON `aois` (`org_id`,`seq`);--> statement-breakpoint
CREATE INDEX `aois_org_project` ON `aois` (`org_id`,`project_id`,`seq`);--> statement-breakpoint
CREATE TABLE `assets` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`org_id` text NOT NULL,
	`aoi_id` text NOT NULL,
	`visualization_id` text,
	`source_item_id` text,
	`source_asset_id` text,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`asset_type` text NOT NULL,
	`band_list_json` text NOT NULL,
	`date` text NOT NULL,
	`geometry_json` text,
	`area_sq_m` real,
	`centroid_lon` real,
	`centroid_lat` real,
	`path` text,
	`status` text NOT NULL,
	`progress` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`aoi_id`) REFERENCES `aois`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `assets_id_unique` ON `assets` (`id`);--> statement-breakpoint
CREATE INDEX `assets_aoi_seq` ON `assets` (`aoi_id`,`seq`);--> statement-breakpoint
CREATE INDEX `assets_visualization` ON `assets` (`visualization_id`,`seq`);--> statement-breakpoint
CREATE TABLE `visualizations` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`org_id` text NOT NULL,
	`user_id` text NOT NULL,
	`aoi_id` text NOT NULL,
	`index_id` text NOT NULL,
	`index_name` text NOT NULL,
	`expression` text NOT NULL,
	`expression_type` text NOT NULL,
	`type` text NOT NULL,
	`rescale_json` text NOT NULL,
	`src_asset_ids_json` text NOT NULL,
	`status` text NOT NULL,
	`progress` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`aoi_id`) REFERENCES `aois`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `visualizations_id_unique` ON `visualizations` (`id`);--> statement-breakpoint
CREATE INDEX `visualizations_aoi_status` ON `visualizations` (`aoi_id`,`status`);--> statement-breakpoint
CREATE TABLE `job_tasks` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`job_id` text NOT NULL,
	`position` integer NOT NULL,
	`step_key` text NOT NULL,
	`name` text NOT NULL,
	`block_id` text NOT NULL,
	`block_name` text NOT NULL,
	`block_version` text NOT NULL,
	`status` text NOT NULL,
	`state_msg` text NOT NULL,
	`err_msg` text,
	`failure_type` text,
	`progress` integer NOT NULL,
	`estimated_time_duration` integer NOT NULL,
	`depends_on_json` text NOT NULL,
	`disclaimer_json` text NOT NULL,
	`info_logs_text` text NOT NULL,
	`inputs_text` text NOT NULL,
	`result_text` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`started_at` integer,
	`finished_at` integer,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `job_tasks_id_unique` ON `job_tasks` (`id`);--> statement-breakpoint
CREATE INDEX `job_tasks_job` ON `job_tasks` (`job_id`,`position`);--> statement-breakpoint
CREATE TABLE `jobs` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`org_id` text NOT NULL,
	`project_id` text NOT NULL,
	`workflow_id` text NOT NULL,
	`created_by` text NOT NULL,
	`status` text NOT NULL,
	`progress` integer NOT NULL,
	`estimated_duration` integer NOT NULL,
	`cost` integer NOT NULL,
	`spec_text` text NOT NULL,
	`val_errors_json` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`finished_at` integer,
	`exec_created_at` integer,
	`exec_updated_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `jobs_id_unique` ON `jobs` (`id`);--> statement-breakpoint
CREATE INDEX `jobs_org_seq` ON `jobs` (`org_id`,`seq`);--> statement-breakpoint
CREATE TABLE `order_items` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`order_id` text NOT NULL,
	`position` integer NOT NULL,
	`org_id` text NOT NULL,
	`project_id` text NOT NULL,
	`user_id` text NOT NULL,
	`created_by` text NOT NULL,
	`updated_by` text NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`payment_status` text NOT NULL,
	`feasibility_status` text NOT NULL,
	`last_feasibility_check` integer NOT NULL,
	`area` real NOT NULL,
	`satellite_id` text NOT NULL,
	`bandset_json` text NOT NULL,
	`number_of_bands` integer NOT NULL,
	`base_amount` real NOT NULL,
	`final_amount` real NOT NULL,
	`refunded_amount` real DEFAULT 0 NOT NULL,
	`tokens_used` real NOT NULL,
	`transaction_id` text,
	`uplifts_json` text NOT NULL,
	`cloud_cover` real,
	`off_nadir` real,
	`cloud_delivery_json` text,
	`delivery_speed` text NOT NULL,
	`image_type` text NOT NULL,
	`recurrence` text NOT NULL,
	`usecase` text,
	`start_date` integer,
	`end_date` integer,
	`no_of_occurrences` integer NOT NULL,
	`occurrences_json` text,
	`item_ids_json` text,
	`images_json` text NOT NULL,
	`geometry_json` text NOT NULL,
	`validation_errors_json` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `order_items_id_unique` ON `order_items` (`id`);--> statement-breakpoint
CREATE INDEX `order_items_order` ON `order_items` (`order_id`,`position`);--> statement-breakpoint
CREATE INDEX `order_items_org_created` ON `order_items` (`org_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `order_items_org_user_created` ON `order_items` (`org_id`,`user_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `order_items_org_project_created` ON `order_items` (`org_id`,`project_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `order_items_org_status_created` ON `order_items` (`org_id`,`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `order_items_org_type_created` ON `order_items` (`org_id`,`type`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `order_list_versions` (
	`org_id` text PRIMARY KEY NOT NULL,
	`version` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `orders` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`org_id` text NOT NULL,
	`user_id` text NOT NULL,
	`created_by` text NOT NULL,
	`updated_by` text NOT NULL,
	`status` text NOT NULL,
	`total_amount` real NOT NULL,
	`refunded_amount` real DEFAULT 0 NOT NULL,
	`transaction_id` text,
	`paid_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`wire_json` blob NOT NULL,
	`wire_version` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `orders_id_unique` ON `orders` (`id`);--> statement-breakpoint
CREATE INDEX `orders_org_created` ON `orders` (`org_id`,`created_at`,`id`,`wire_version`);--> statement-breakpoint
CREATE INDEX `orders_org_user_created` ON `orders` (`org_id`,`user_id`,`created_at`,`id`,`wire_version`);--> statement-breakpoint
CREATE TABLE `tasks` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`order_item_id` text NOT NULL,
	`order_id` text NOT NULL,
	`org_id` text NOT NULL,
	`position` integer NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`delivery_status` text NOT NULL,
	`start_date` integer NOT NULL,
	`end_date` integer NOT NULL,
	`number_of_strips` integer NOT NULL,
	`tokens_used` real NOT NULL,
	`transaction_id` text,
	`scene_id` text,
	`catalog_id` text,
	`failure_reason` text,
	`created_by` text NOT NULL,
	`updated_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tasks_id_unique` ON `tasks` (`id`);--> statement-breakpoint
CREATE INDEX `tasks_item` ON `tasks` (`order_item_id`,`position`);--> statement-breakpoint
CREATE TABLE `deliveries` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`id` text NOT NULL,
	`org_id` text NOT NULL,
	`catalog_id` text,
	`task_id` text,
	`order_item_id` text,
	`cloud_config` text NOT NULL,
	`cloud_path` text NOT NULL,
	`status` text NOT NULL,
	`reason` text,
	`target_path` text NOT NULL,
	`created_by` text NOT NULL,
	`updated_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `deliveries_id_unique` ON `deliveries` (`id`);--> statement-breakpoint
CREATE INDEX `deliveries_org_created` ON `deliveries` (`org_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `deliveries_task` ON `deliveries` (`task_id`);