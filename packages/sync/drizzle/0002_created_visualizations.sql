CREATE TABLE `mirror_visualizations` (
	`id` text PRIMARY KEY NOT NULL,
	`aoi_id` text NOT NULL,
	`status` text,
	`created_at_us` integer NOT NULL,
	`json` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `mirror_visualizations_created` ON `mirror_visualizations` (`created_at_us`);