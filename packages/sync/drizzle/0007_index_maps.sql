ALTER TABLE `mirror_imagery` ADD `aoi_id` text;--> statement-breakpoint
ALTER TABLE `mirror_imagery` ADD `legend_json` text;