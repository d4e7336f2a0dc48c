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
CREATE INDEX `jobs_org_seq` ON `jobs` (`org_id`,`seq`);