/**
 * Whether the online tiles are showing: a view whose tiles all failed (none loaded) makes the
 * note "Online tiles unavailable: <reason>; showing the offline map"; a view with at least one
 * loaded tile (cached or fetched) clears it. Counted per view: Leaflet fires `loading` when a
 * view starts loading tiles and `load` when all of them are done, failed or not.
 */
import type L from 'leaflet';

export function tilesUnavailableNote(reason: string): string {
  return `Online tiles unavailable: ${reason}; showing the offline map`;
}

/** Watch a tile layer; `report` gets the note, or null once tiles show. Returns the stop. */
export function watchTileHealth(
  layer: L.GridLayer,
  report: (note: string | null) => void,
): () => void {
  let loaded = 0;
  let failed = 0;
  let reason = '';
  const handlers: Record<string, L.LeafletEventHandlerFn> = {
    loading: () => {
      loaded = 0;
      failed = 0;
    },
    tileload: () => {
      loaded++;
      report(null);
    },
    tileerror: (e) => {
      failed++;
      const err = (e as L.TileErrorEvent).error as unknown;
      reason = err instanceof Error && err.message ? err.message : 'the tile could not be loaded';
    },
    load: () => {
      if (failed > 0 && loaded === 0) report(tilesUnavailableNote(reason));
    },
  };
  layer.on(handlers);
  return () => void layer.off(handlers);
}
