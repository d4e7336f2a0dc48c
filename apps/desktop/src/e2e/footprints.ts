/** Areas the end-to-end journeys draw: a field, and from a scene's footprint (Node side, no DOM). */
import type { Polygon } from '@eo/domain';

/** A small field near Bologna (about 3 x 3 km), for orders of an area of one's own. */
export const FIELD_NEAR_BOLOGNA: Polygon = {
  type: 'Polygon',
  coordinates: [
    [
      [11.3, 44.48],
      [11.34, 44.48],
      [11.34, 44.51],
      [11.3, 44.51],
      [11.3, 44.48],
    ],
  ],
};

/** The footprint shrunk by half towards its centre: inside the (convex) scene, so it is covered. */
export function insideOf(footprint: Polygon): Polygon {
  const ring = footprint.coordinates[0]!.slice(0, -1);
  const cx = ring.reduce((sum, p) => sum + p[0]!, 0) / ring.length;
  const cy = ring.reduce((sum, p) => sum + p[1]!, 0) / ring.length;
  const shrunk = ring.map(([x, y]) => [cx + (x! - cx) / 2, cy + (y! - cy) / 2]);
  return { type: 'Polygon', coordinates: [[...shrunk, shrunk[0]!]] };
}

/** One demo catalog record of the organisation and the archive scene it is. */
export interface DemoRecord {
  readonly id: string;
  readonly sceneId: string;
  readonly footprint: Polygon;
}

/**
 * The first `count` demo catalog records whose scenes `satelliteId` took, from the service's
 * database (`sqlite` of the running reference service).
 */
export function recordsOf(
  sqlite: { prepare(sql: string): { all(...args: unknown[]): unknown[] } },
  satelliteId: string,
  count: number,
): DemoRecord[] {
  const rows = sqlite
    .prepare(
      `SELECT c.id AS id, c.item_id AS sceneId, a.feature_json AS feature
       FROM catalog_records c JOIN archive_scenes a ON a.id = c.item_id
       WHERE a.satellite_id = ? ORDER BY c.id LIMIT ?`,
    )
    .all(satelliteId, count) as Array<{ id: string; sceneId: string; feature: string }>;
  return rows.map((r) => ({
    id: r.id,
    sceneId: r.sceneId,
    footprint: (JSON.parse(r.feature) as { geometry: Polygon }).geometry,
  }));
}
