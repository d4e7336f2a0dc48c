/** Which footprints lie under a point: the grid gives candidates, the ring test decides. */
import { footprintContains, type PackedFootprints } from './footprints';
import type { GridIndex } from './spatial-index';

/**
 * Footprints containing the projected point (x, y) in world units, smallest area first, so a
 * small scene inside a large one can still be picked. The copies one world to the left and
 * right are tested too (rings unwrapped across the antimeridian reach past 0..1).
 */
export function footprintsAt(
  fp: PackedFootprints,
  index: GridIndex,
  x: number,
  y: number,
): number[] {
  const hits: number[] = [];
  for (const dx of [0, 1, -1]) {
    for (const i of index.queryPoint(x + dx, y)) {
      if (!hits.includes(i) && footprintContains(fp, i, x + dx, y)) hits.push(i);
    }
  }
  return hits.sort((a, b) => (fp.areas[a] as number) - (fp.areas[b] as number) || a - b);
}
