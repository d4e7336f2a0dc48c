/**
 * Defaults and bounds of the spec's part 8, plus the values the spec leaves open, chosen once
 * here for every package (documented in packages/reference-service/README.md, "Choices where the spec is open").
 */
export const LIMITS = {
  /** list AOIs, list AOI assets, list indices (spec: default 10, offset 0). */
  listDefaultLimit: 10,
  /** list order items, list orders, list archive items: not shown; we use the same 10. */
  openListDefaultLimit: 10,
  /** catalog search (spec: default 100, offset default 0 and at least 0). */
  catalogSearchDefaultLimit: 100,
  /** satellite image search: spec bounds skip >= 0 and limit >= 1; defaults not shown (0, 10). */
  satelliteSearchDefaultLimit: 10,
  /** Maximum `limit` on every list and search: not shown; ours is 1000. */
  maxLimit: 1000,
  /** Largest offset/skip accepted (keeps SQL OFFSET bounded): not shown; ours. */
  maxOffset: 10_000_000,
  /** Most order items in one create order request. */
  maxOrderItems: 100,
  /** Most deliveries in one create deliveries request. */
  maxDeliveries: 100,
  /** Most scenes (catalog ids, order item ids or AOI asset ids) in one download request. */
  maxDownloadScenes: 100,
  /** Most ids in one id-list filter. */
  maxIdsPerFilter: 1000,
  /**
   * Geometry caps of every request geometry (AOIs, order item features, search geometries):
   * positions in one geometry (all rings and parts; for an order item, all its features).
   */
  maxGeometryVertices: 10_000,
  /** Positions in one create order request, over all its items (bounds the checking work). */
  maxOrderVertices: 50_000,
  /** Parts of one geometry: polygons of a MultiPolygon, lines, points, collection members, features. */
  maxGeometryParts: 100,
  /** Holes (inner rings) of one polygon. */
  maxPolygonHoles: 100,
  /**
   * Bytes of records in one list page of our service at most (GET /v0/orders): a page whose
   * records would pass it ends early (always with at least one record) and its
   * `pagination.limit` is the number of records it holds, so `offset + limit` is the next page.
   */
  maxListPageBytes: 4 * 1024 * 1024,
  /** Longest delivery path (`cloud_delivery.path`, `cloud_info.path`), in characters. */
  maxCloudPathChars: 1024,
  /** Longest folder name in a delivery path, in UTF-8 bytes (what common file systems take). */
  maxPathSegmentBytes: 255,
  /**
   * Scenes a saved archive search keeps in the mirror (the client's choice, not the spec's): by
   * default, and at most (each costs a thumbnail of ~55 kB: 1,000 are ~55 MB).
   */
  savedArchiveSearchDefaultScenes: 200,
  savedArchiveSearchMaxScenes: 1000,
  /** Largest request body in bytes (413 above it). */
  maxBodyBytes: 5 * 1024 * 1024,
} as const;
