-- The mirror's catalog made smaller where search does not need the bytes (records untouched):
-- 1. Its item index without `org_id` (a mirror holds one organisation, `mirror`: every entry
--    repeated it; an item filter names a few records), and the order, order item and task
--    links indexed only where set (partial indexes: most records have none).
--    @eo/catalog-store's compact layout defines them.
-- 2. Seen marks by pass number: each pass's id (a UUID) once in `mirror_catalog_passes`, each
--    record's mark its id and that number; the view `mirror_catalog_seen` reads them as the
--    table of the same name was read.
-- One transaction with the other pending migrations: a run killed halfway leaves the file as
-- it was, and the next open runs it again.
DROP INDEX `catalog_org_item`;--> statement-breakpoint
DROP INDEX `catalog_org_order`;--> statement-breakpoint
DROP INDEX `catalog_org_order_item`;--> statement-breakpoint
DROP INDEX `catalog_task`;--> statement-breakpoint
CREATE INDEX `catalog_item` ON `catalog_records` (`item_id`);--> statement-breakpoint
CREATE INDEX `catalog_order_set` ON `catalog_records` (`order_id`) WHERE "order_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `catalog_order_item_set` ON `catalog_records` (`order_item_id`) WHERE "order_item_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX `catalog_task_set` ON `catalog_records` (`task_id`) WHERE "task_id" IS NOT NULL;--> statement-breakpoint
CREATE TABLE `mirror_catalog_passes` (
	`id` integer PRIMARY KEY NOT NULL,
	`pass_id` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mirror_catalog_passes_pass_id_unique` ON `mirror_catalog_passes` (`pass_id`);--> statement-breakpoint
CREATE TABLE `mirror_catalog_seen_marks` (
	`record_id` text PRIMARY KEY NOT NULL,
	`pass` integer NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `mirror_catalog_passes` (`pass_id`)
  SELECT DISTINCT `pass_id` FROM `mirror_catalog_seen` ORDER BY `pass_id`;--> statement-breakpoint
INSERT INTO `mirror_catalog_seen_marks` (`record_id`, `pass`)
  SELECT s.`record_id`, p.`id` FROM `mirror_catalog_seen` s
  JOIN `mirror_catalog_passes` p ON p.`pass_id` = s.`pass_id`
  ORDER BY s.`record_id`;--> statement-breakpoint
DROP TABLE `mirror_catalog_seen`;--> statement-breakpoint
CREATE VIEW `mirror_catalog_seen` AS
  SELECT m.`record_id` AS `record_id`, p.`pass_id` AS `pass_id`
  FROM `mirror_catalog_seen_marks` m JOIN `mirror_catalog_passes` p ON p.`id` = m.`pass`;
