CREATE TABLE `mirror_unindexed` (
	`resource` text NOT NULL,
	`record_id` text NOT NULL,
	`fields` text NOT NULL,
	PRIMARY KEY(`resource`, `record_id`)
);
--> statement-breakpoint
CREATE TABLE `sync_drift` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`resource` text NOT NULL,
	`pass_id` text NOT NULL,
	`source` text NOT NULL,
	`record_id` text,
	`path` text NOT NULL,
	`message` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sync_drift_resource` ON `sync_drift` (`resource`,`seq`);--> statement-breakpoint
ALTER TABLE `sync_state` ADD `incomplete` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `sync_state` ADD `drift` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `sync_state` ADD `skipped` integer DEFAULT 0 NOT NULL;