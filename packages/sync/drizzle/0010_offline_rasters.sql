CREATE TABLE `offline_raster_parts` (
	`raster_id` text NOT NULL,
	`part` text NOT NULL,
	`part_offset` integer NOT NULL,
	`length` integer NOT NULL,
	`sha256` text NOT NULL,
	PRIMARY KEY(`raster_id`, `part`)
);
--> statement-breakpoint
CREATE TABLE `offline_rasters` (
	`id` text PRIMARY KEY NOT NULL,
	`scene_kind` text NOT NULL,
	`scene_ref` text NOT NULL,
	`aoi_id` text,
	`scene_id` text,
	`area_json` text NOT NULL,
	`area_label` text NOT NULL,
	`resolution` text NOT NULL,
	`level` integer,
	`idempotency_key` text NOT NULL,
	`request_sent` integer DEFAULT 0 NOT NULL,
	`download_id` text,
	`state` text NOT NULL,
	`mode` text,
	`source_etag` text,
	`source_bytes` integer,
	`epsg` integer,
	`bounds_json` text,
	`width` integer,
	`height` integer,
	`bands_json` text,
	`nodata` real,
	`file` text,
	`bytes` integer,
	`sha256` text,
	`planned_bytes` integer,
	`fetched_bytes` integer DEFAULT 0 NOT NULL,
	`message` text,
	`created_at_us` integer NOT NULL,
	`updated_at_us` integer NOT NULL,
	`stored_at_us` integer
);
--> statement-breakpoint
CREATE INDEX `offline_rasters_scene` ON `offline_rasters` (`scene_id`);--> statement-breakpoint
CREATE INDEX `offline_rasters_state` ON `offline_rasters` (`state`);