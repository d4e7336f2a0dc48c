/**
 * Where a map was left, its centre and zoom, remembered in localStorage per map: the catalog map
 * opens where the field team left it (as QField and Planet Explorer do), not on the whole world.
 * Its first search is still fitted to its results; when they are the ones last fitted to (the
 * usual launch), the map already shows them and the fit moves nothing, so the basemap is drawn
 * once, at that view, its detail asked for at once. A stored value that is not a view (an older
 * shape, edited by hand) gives way to the map's default view.
 */
import type L from 'leaflet';
import { z } from 'zod';
import { readStored, writeStored } from '../local-storage';

const SavedView = z.object({
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  zoom: z.number().min(0).max(24),
});
export type SavedView = z.infer<typeof SavedView>;

/** The view stored under `key`, or null (none, or not a view). */
export function readSavedView(key: string): SavedView | null {
  const raw = readStored(key);
  if (raw === null) return null;
  try {
    const parsed = SavedView.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null; // not JSON
  }
}

/** Keep the map's view under `key` at the end of every move; returns the stop. */
export function keepView(map: L.Map, key: string): () => void {
  const save = () => {
    const c = map.getCenter();
    const view: SavedView = { lat: c.lat, lng: c.lng, zoom: map.getZoom() };
    writeStored(key, JSON.stringify(view));
  };
  map.on('moveend', save);
  return () => map.off('moveend', save);
}
