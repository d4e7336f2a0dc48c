/**
 * The R*Tree over catalog footprints. drizzle cannot express virtual tables, so every schema
 * that holds `catalog_records` creates this in a custom migration with exactly this statement.
 * It stores 32-bit floats rounded outward: a superset of candidates, tested exactly after.
 */
export const CATALOG_RTREE_DDL =
  'CREATE VIRTUAL TABLE `catalog_rtree` USING rtree(seq, min_lon, max_lon, min_lat, max_lat)';
