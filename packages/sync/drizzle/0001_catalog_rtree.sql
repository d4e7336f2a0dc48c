-- The R*Tree over catalog footprints (drizzle cannot express virtual tables). The statement is
-- @eo/catalog-store's CATALOG_RTREE_DDL verbatim (a test holds them equal).
CREATE VIRTUAL TABLE `catalog_rtree` USING rtree(seq, min_lon, max_lon, min_lat, max_lat);
