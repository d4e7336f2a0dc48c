CREATE TABLE `mirror_reference` (
	`kind` text NOT NULL,
	`id` text NOT NULL,
	`name` text,
	`json` text NOT NULL,
	PRIMARY KEY(`kind`, `id`)
);
