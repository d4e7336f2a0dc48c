CREATE TABLE `sync_incremental` (
	`resource` text PRIMARY KEY NOT NULL,
	`pass_mode` text DEFAULT 'full' NOT NULL,
	`pass_since_us` integer,
	`watermark_us` integer,
	`last_full_at_us` integer,
	`unsupported_json` text
);
