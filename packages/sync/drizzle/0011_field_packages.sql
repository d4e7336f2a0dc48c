CREATE TABLE `mirror_origin` (
	`id` integer PRIMARY KEY NOT NULL,
	`service` text,
	`organisation` text,
	`source` text NOT NULL,
	`updated_at_us` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `outbox` ADD `handed_over_at` integer;--> statement-breakpoint
ALTER TABLE `outbox` ADD `received_at` integer;