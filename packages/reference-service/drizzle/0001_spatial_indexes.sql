-- R*Tree indexes over footprints (drizzle cannot express virtual tables).
-- The R*Tree stores 32-bit floats rounded outward, so it yields a superset of candidates:
-- an exact geometry test must follow it.
CREATE VIRTUAL TABLE `archive_scenes_rtree` USING rtree(seq, min_lon, max_lon, min_lat, max_lat);
--> statement-breakpoint
CREATE VIRTUAL TABLE `catalog_rtree` USING rtree(seq, min_lon, max_lon, min_lat, max_lat);
