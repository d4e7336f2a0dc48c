-- The first screen's footprints kept for the next launch (src/search/kept-footprints.ts): one
-- row at most. The triggers that drop it on any change to the catalog's ids and rings are made
-- when the mirror opens.
CREATE TABLE `mirror_footprints_kept` (
	`key` text PRIMARY KEY NOT NULL,
	`n` integer NOT NULL,
	`ids` text NOT NULL,
	`offsets` blob NOT NULL,
	`coords` blob NOT NULL
);
