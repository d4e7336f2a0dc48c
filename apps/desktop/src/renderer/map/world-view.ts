/**
 * One world, never repeated: the limits every map of the app keeps to, and how a set of shapes
 * is brought into view. Web Mercator stops at ±85.05° latitude; fitting bounds that reach
 * beyond (or a view wider than the world) showed the world repeated and an empty band under
 * Antarctica, so the maps keep their view inside the world and never zoom out past the zoom
 * at which the world fills the view.
 */
import L from 'leaflet';

export const MAX_MERCATOR_LAT = 85.0511;
export const WORLD_BOUNDS = L.latLngBounds([-MAX_MERCATOR_LAT, -180], [MAX_MERCATOR_LAT, 180]);
/** Leaflet's own floor for an empty or tiny map element. */
const FLOOR_ZOOM = 1;
/** Fitting never zooms in further than this (one scene fills the view at about 10–12). */
export const FIT_MAX_ZOOM = 12;
/** Pixels kept free around fitted shapes (the tool buttons sit top right). */
export const FIT_PADDING = L.point(40, 40);

/** The map options that keep one world in view (with `keepWorldInView` on resize). */
export const WORLD_MAP_OPTIONS: L.MapOptions = {
  maxBounds: WORLD_BOUNDS,
  maxBoundsViscosity: 1,
  worldCopyJump: false,
};

/** Bounds cut to the latitudes Web Mercator can show and the one world's longitudes. */
export function clampToWorld(bounds: L.LatLngBounds): L.LatLngBounds {
  const clampLat = (v: number) => Math.max(-MAX_MERCATOR_LAT, Math.min(MAX_MERCATOR_LAT, v));
  const clampLng = (v: number) => Math.max(-180, Math.min(180, v));
  return L.latLngBounds(
    [clampLat(bounds.getSouth()), clampLng(bounds.getWest())],
    [clampLat(bounds.getNorth()), clampLng(bounds.getEast())],
  );
}

/**
 * The lowest zoom at which the world still covers the whole view (no band, no second world).
 * An element with no size yet (a hidden screen) gets Leaflet's floor; the next resize fixes it.
 */
export function worldFillZoom(map: L.Map): number {
  const size = map.getSize();
  if (size.x <= 0 || size.y <= 0) return FLOOR_ZOOM;
  return Math.max(FLOOR_ZOOM, map.getBoundsZoom(WORLD_BOUNDS, true));
}

/** Set the map's minimum zoom to the world-filling one (call on creation and resize). */
export function keepWorldInView(map: L.Map): void {
  map.setMinZoom(worldFillZoom(map));
}

/** Bring bounds into view: clamped to the world, padded, between the world zoom and 12. */
export function fitToBounds(
  map: L.Map,
  bounds: L.LatLngBounds,
  options: { readonly maxZoom?: number; readonly animate?: boolean } = {},
): void {
  if (!bounds.isValid()) return;
  const size = map.getSize();
  if (size.x <= 0 || size.y <= 0) {
    // Not laid out yet (a screen just shown, a hidden one): fitting now zooms to the minimum
    // and an imported field shows as a dot. Fit once the map has its size (its element's
    // ResizeObserver calls invalidateSize, which fires `resize`).
    map.once('resize', () => fitToBounds(map, bounds, options));
    return;
  }
  map.fitBounds(clampToWorld(bounds), {
    padding: FIT_PADDING,
    maxZoom: options.maxZoom ?? FIT_MAX_ZOOM,
    animate: options.animate ?? false,
  });
}

/**
 * Bring bounds into view only when they are not in it: pan when they fit at the current zoom,
 * else zoom out (or in) to them.
 */
export function revealBounds(map: L.Map, bounds: L.LatLngBounds): void {
  if (!bounds.isValid() || map.getBounds().contains(bounds)) return;
  if (map.getBoundsZoom(clampToWorld(bounds), false, FIT_PADDING) >= map.getZoom()) {
    map.panTo(bounds.getCenter(), { animate: false });
  } else {
    fitToBounds(map, bounds);
  }
}
