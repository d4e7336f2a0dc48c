/**
 * Loads the bundled Natural Earth shapes. Both sizes are separate chunks (dynamic imports), so
 * they are not part of the initial JS: 1:110m (about 100 KB) for the world view, 1:50m (about
 * 750 KB) once the user zooms in far enough for the coarse coastline to look wrong.
 */
import { worldShapes, type Topology, type WorldShapes } from './world-shapes';

/** Zoom from which the detailed shapes are worth loading. */
export const DETAILED_FROM_ZOOM = 4;

export async function loadWorld(detail: 'coarse' | 'detailed'): Promise<WorldShapes> {
  const mod =
    detail === 'coarse'
      ? await import('world-atlas/countries-110m.json')
      : await import('world-atlas/countries-50m.json');
  return worldShapes(mod.default as unknown as Topology);
}
