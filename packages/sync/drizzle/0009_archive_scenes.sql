CREATE TABLE `mirror_archive_scenes` (
	`id` text PRIMARY KEY NOT NULL,
	`collection_id` text,
	`satellite_id` text,
	`datetime_us` integer,
	`cloud_cover` real,
	`min_lon` real,
	`min_lat` real,
	`max_lon` real,
	`max_lat` real,
	`json` text NOT NULL,
	`received_at_us` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mirror_archive_scenes_datetime` ON `mirror_archive_scenes` (`datetime_us`);--> statement-breakpoint
CREATE TABLE `mirror_archive_search_scenes` (
	`search_id` text NOT NULL,
	`scene_id` text NOT NULL,
	`rank` integer NOT NULL,
	PRIMARY KEY(`search_id`, `scene_id`)
);
--> statement-breakpoint
CREATE INDEX `mirror_archive_search_scenes_rank` ON `mirror_archive_search_scenes` (`search_id`,`rank`);--> statement-breakpoint
CREATE INDEX `mirror_archive_search_scenes_scene` ON `mirror_archive_search_scenes` (`scene_id`);--> statement-breakpoint
CREATE TABLE `mirror_archive_searches` (
	`search_id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`plan` text NOT NULL,
	`received` integer DEFAULT 0 NOT NULL,
	`total` integer,
	`incomplete` integer DEFAULT 0 NOT NULL,
	`drift` integer DEFAULT 0 NOT NULL,
	`skipped` integer DEFAULT 0 NOT NULL,
	`attempted_at_us` integer,
	`last_complete_at_us` integer,
	`last_error_json` text
);
