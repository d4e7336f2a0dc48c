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