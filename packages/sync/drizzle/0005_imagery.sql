CREATE TABLE `mirror_imagery` (
	`record_id` text NOT NULL,
	`variant` text NOT NULL,
	`file` text NOT NULL,
	`bytes` integer NOT NULL,
	`sha256` text NOT NULL,
	`fetched_at_us` integer NOT NULL,
	`last_viewed_us` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`record_id`, `variant`)
);
--> statement-breakpoint
CREATE INDEX `mirror_imagery_viewed` ON `mirror_imagery` (`last_viewed_us`,`fetched_at_us`);