/**
 * Geoman (polygon drawing) is loaded on first use, not at start: it is the largest library of
 * the renderer and only the "draw an area" filter needs it. Geoman attaches `map.pm` through a
 * map init hook, so a map created before it loaded gets its `pm` here.
 */
/// <reference types="@geoman-io/leaflet-geoman-free" />
import L from 'leaflet';

let loading: Promise<void> | null = null;

export async function ensureGeoman(map: L.Map): Promise<L.PM.PMMap> {
  loading ??= Promise.all([
    import('@geoman-io/leaflet-geoman-free'),
    import('@geoman-io/leaflet-geoman-free/dist/leaflet-geoman.css'),
  ]).then(() => undefined);
  await loading;
  if (!map.pm) {
    // Geoman registers itself on the global L, which is the module imported above.
    const PM = (L as unknown as { PM: { Map: new (m: L.Map) => L.PM.PMMap } }).PM;
    map.pm = new PM.Map(map);
  }
  map.pm.setGlobalOptions({ snappable: false });
  return map.pm;
}
