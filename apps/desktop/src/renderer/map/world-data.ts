/**
 * Loads the bundled Natural Earth shapes, each size a separate chunk (dynamic imports), so none
 * is part of the initial JS: land and borders at 1:110m (about 180 KB, projected and packed by
 * the build: the world view draws them at once) for the world view, 1:50m (about 750 KB) once
 * zoomed in far enough for the coarse coastline to look wrong, 1:10m (about 3.6 MB) at scene
 * scale (the finer two as topologies, `JSON.parse` of a string, made by the build); lakes and
 * rivers at 1:110m and 1:50m, projected and packed (all prepared at build time by
 * `apps/desktop/vite/basemap-data.ts`).
 */
import type { WaterShapes } from './basemap-layer';
import { unpackLines } from './packed-lines';
import { worldShapes, type Topology, type WorldShapes } from './world-shapes';

/** Zoom from which the 1:50m shapes are worth loading. */
export const DETAILED_FROM_ZOOM = 4;
/** Zoom from which the 1:10m land and borders are worth loading (a region, then a scene). */
export const FINE_FROM_ZOOM = 7;

export type WorldDetail = 'coarse' | 'detailed' | 'fine';

export async function loadWorld(detail: WorldDetail): Promise<WorldShapes> {
  if (detail === 'coarse') {
    const packed = (await import('virtual:eo-basemap/shapes-110m')).default;
    return { land: unpackLines(packed.land), borders: unpackLines(packed.borders) };
  }
  const mod =
    detail === 'detailed'
      ? await import('virtual:eo-basemap/land-50m')
      : await import('virtual:eo-basemap/land-10m');
  return worldShapes(mod.default as unknown as Topology);
}

/** Lakes and rivers: 1:110m with the coarse shapes, 1:50m from DETAILED_FROM_ZOOM. */
export async function loadWater(detail: WorldDetail): Promise<WaterShapes> {
  const mod =
    detail === 'coarse'
      ? await import('virtual:eo-basemap/water-110m')
      : await import('virtual:eo-basemap/water-50m');
  return { lakes: unpackLines(mod.default.lakes), rivers: unpackLines(mod.default.rivers) };
}

/** The detail a map at this zoom wants. */
export function detailForZoom(zoom: number): WorldDetail {
  if (zoom >= FINE_FROM_ZOOM) return 'fine';
  if (zoom >= DETAILED_FROM_ZOOM) return 'detailed';
  return 'coarse';
}
