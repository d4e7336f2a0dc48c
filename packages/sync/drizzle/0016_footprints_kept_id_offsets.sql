-- The kept footprints (src/search/kept-footprints.ts) hold their ids as the desktop's wire
-- carries them: joined without a separator, with each id's offset beside them. A kept answer is
-- only a shortcut, so the table is made anew, empty (the next launch reads the rings and keeps
-- them again). Its triggers go first (they read the table); the mirror makes them again when it
-- opens.
DROP TRIGGER IF EXISTS `catalog_footprints_insert_drops_kept_footprints`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `catalog_footprints_update_drops_kept_footprints`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `catalog_footprints_delete_drops_kept_footprints`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `catalog_records_delete_drops_kept_footprints`;--> statement-breakpoint
DROP TRIGGER IF EXISTS `catalog_records_update_drops_kept_footprints`;--> statement-breakpoint
DROP TABLE `mirror_footprints_kept`;--> statement-breakpoint
CREATE TABLE `mirror_footprints_kept` (
	`key` text PRIMARY KEY NOT NULL,
	`n` integer NOT NULL,
	`ids` text NOT NULL,
	`id_offsets` blob NOT NULL,
	`offsets` blob NOT NULL,
	`coords` blob NOT NULL
);
