/** Areas the end-to-end journeys draw from a scene's footprint (Node side, no DOM). */
import type { Polygon } from '@eo/domain';

/** The footprint shrunk by half towards its centre: inside the (convex) scene, so it is covered. */
export function insideOf(footprint: Polygon): Polygon {
  const ring = footprint.coordinates[0]!.slice(0, -1);
  const cx = ring.reduce((sum, p) => sum + p[0]!, 0) / ring.length;
  const cy = ring.reduce((sum, p) => sum + p[1]!, 0) / ring.length;
  const shrunk = ring.map(([x, y]) => [cx + (x! - cx) / 2, cy + (y! - cy) / 2]);
  return { type: 'Polygon', coordinates: [[...shrunk, shrunk[0]!]] };
}
