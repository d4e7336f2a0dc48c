/**
 * The offline basemap of one map: its two canvas layers (`basemap-layer.ts`) and the data they
 * draw, loaded as the zoom asks for it: land, borders, lakes and rivers at 1:110m, 1:50m and
 * 1:10m (`world-data.ts`), place tiers (`places.ts`). Each piece is loaded once per app (the
 * chunks are shared) and the map shows the finest loaded piece its zoom wants, so zooming back
 * out draws the lighter shapes again.
 */
import type L from 'leaflet';
import { BasemapLabelsLayer, BasemapLayer, type WaterShapes } from './basemap-layer';
import { loadPlaceTier, tiersForZoom, type Places } from './places';
import { detailForZoom, loadWater, loadWorld, type WorldDetail } from './world-data';
import type { WorldShapes } from './world-shapes';

const DETAILS: readonly WorldDetail[] = ['coarse', 'detailed', 'fine'];

export interface OfflineBasemapOptions {
  /** Load the 1:50m and 1:10m shapes when zoomed in (false: 1:110m only, a small map). */
  readonly detailed?: boolean;
  /** The coarse shapes could not be loaded: the map has no basemap at all. */
  readonly onError?: (message: string) => void;
}

export interface OfflineBasemap {
  readonly base: BasemapLayer;
  readonly labels: BasemapLabelsLayer;
  /** Resolves once the data for the current zoom is drawn (tests, the e2e check). */
  idle(): Promise<void>;
  remove(): void;
}

export function createOfflineBasemap(
  map: L.Map,
  options: OfflineBasemapOptions = {},
): OfflineBasemap {
  const base = new BasemapLayer().addTo(map);
  const labels = new BasemapLabelsLayer().addTo(map);
  const shapes = new Map<WorldDetail, WorldShapes>();
  const water = new Map<WorldDetail, WaterShapes>();
  const places = new Map<number, Places>();
  const pending = new Set<Promise<unknown>>();
  const requested = new Set<string>();
  let removed = false;

  function track<T>(p: Promise<T>): Promise<T> {
    pending.add(p);
    const done = () => void pending.delete(p);
    p.then(done, done);
    return p;
  }

  function best<T>(loaded: Map<WorldDetail, T>, want: WorldDetail): T | undefined {
    // The wanted detail, else the nearest coarser one, else anything loaded.
    const at = DETAILS.indexOf(want);
    for (let i = at; i >= 0; i--) {
      const v = loaded.get(DETAILS[i]!);
      if (v) return v;
    }
    return DETAILS.map((d) => loaded.get(d)).find((v) => v !== undefined);
  }

  function show(): void {
    if (removed) return;
    const want = wanted();
    const s = best(shapes, want);
    if (s) base.setShapes(s);
    const w = best(water, want === 'fine' ? 'detailed' : want);
    if (w) base.setWater(w);
    labels.setPlaces(
      tiersForZoom(map.getZoom()).flatMap((t) => (places.has(t) ? [places.get(t)!] : [])),
    );
  }

  function wanted(): WorldDetail {
    return options.detailed ? detailForZoom(map.getZoom()) : 'coarse';
  }

  /** Load a piece once (again after a failure, at the next zoom), keep it, redraw. */
  function once<K, T>(
    key: string,
    into: Map<K, T>,
    at: K,
    loader: () => Promise<T>,
    failed?: () => void,
  ): void {
    if (requested.has(key)) return;
    requested.add(key);
    track(loader()).then(
      (v) => {
        into.set(at, v);
        show();
      },
      () => {
        requested.delete(key);
        failed?.();
      },
    );
  }

  function load(): void {
    const want = wanted();
    const waterWant = want === 'fine' ? 'detailed' : want;
    // Without the coarse shapes there is no basemap; a finer one missing leaves the coarser.
    once(
      `shapes:${want}`,
      shapes,
      want,
      () => loadWorld(want),
      () => {
        if (want === 'coarse') options.onError?.('The offline basemap could not be loaded.');
      },
    );
    once(`water:${waterWant}`, water, waterWant, () => loadWater(waterWant));
    for (const tier of tiersForZoom(map.getZoom())) {
      once(`places:${tier}`, places, tier, () => loadPlaceTier(tier));
    }
    show();
  }

  map.on('zoomend', load);
  load();

  return {
    base,
    labels,
    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
    remove() {
      removed = true;
      map.off('zoomend', load);
      base.remove();
      labels.remove();
    },
  };
}
