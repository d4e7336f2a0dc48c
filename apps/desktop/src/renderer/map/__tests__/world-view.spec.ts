import L from 'leaflet';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  clampToWorld,
  fitToBounds,
  keepWorldInView,
  MAX_MERCATOR_LAT,
  revealBounds,
  WORLD_MAP_OPTIONS,
  worldFillZoom,
} from '../world-view';
import { giveElementsSize } from './layout';

let undoSize: () => void;
let map: L.Map;

beforeEach(() => {
  undoSize = giveElementsSize(1000, 700);
  const el = document.createElement('div');
  document.body.append(el);
  map = L.map(el, { center: [20, 0], zoom: 2, minZoom: 1, ...WORLD_MAP_OPTIONS });
  keepWorldInView(map);
});

afterEach(() => {
  map.remove();
  undoSize();
});

/** Pixel rows of the view above and below the world (an empty band), in a 1000x700 view. */
function bandPixels(): number {
  const top = map.latLngToContainerPoint([MAX_MERCATOR_LAT, 0]).y;
  const bottom = map.latLngToContainerPoint([-MAX_MERCATOR_LAT, 0]).y;
  return Math.max(0, top) + Math.max(0, 700 - bottom);
}

describe('one world in view', () => {
  it('never zooms out below the zoom at which the world fills the view', () => {
    // 1000x700: the world (256 * 2^z px square) covers 1000 px wide from zoom 2.
    expect(worldFillZoom(map)).toBe(2);
    expect(map.getMinZoom()).toBe(2);
    map.setZoom(0, { animate: false });
    expect(map.getZoom()).toBe(2);
  });

  it('"zoom to results" of footprints all over the world shows one world, no band', () => {
    const everywhere = L.latLngBounds([-89, -179.9], [89, 179.9]);
    fitToBounds(map, everywhere);
    expect(map.getZoom()).toBe(2);
    expect(bandPixels()).toBe(0);
    // The view lies within one world: no longitude beyond ±180.
    expect(map.getBounds().getWest()).toBeGreaterThanOrEqual(-180.0001);
    expect(map.getBounds().getEast()).toBeLessThanOrEqual(180.0001);
  });

  it('fits one scene closely (not the minimum zoom) and caps the zoom for a point', () => {
    const scene = L.latLngBounds([44.0, -123.2], [44.4, -122.7]);
    fitToBounds(map, scene);
    expect(map.getZoom()).toBeGreaterThanOrEqual(9);
    expect(map.getBounds().contains(scene)).toBe(true);
    fitToBounds(map, L.latLngBounds([44, -123], [44, -123]));
    expect(map.getZoom()).toBe(12);
  });

  it('clamps latitudes to what Web Mercator shows', () => {
    const b = clampToWorld(L.latLngBounds([-90, -200], [90, 10]));
    expect(b.getSouth()).toBe(-MAX_MERCATOR_LAT);
    expect(b.getNorth()).toBe(MAX_MERCATOR_LAT);
    expect(b.getWest()).toBe(-180);
  });

  it('reveals bounds off screen: pans at the same zoom when they fit, zooms out when not', () => {
    map.setView([44, -123], 8, { animate: false });
    const sweden = L.latLngBounds([59.0, 17.5], [59.3, 18.0]);
    revealBounds(map, sweden);
    expect(map.getZoom()).toBe(8);
    expect(map.getBounds().contains(sweden)).toBe(true);
    const large = L.latLngBounds([30, -120], [60, -60]);
    revealBounds(map, large);
    expect(map.getZoom()).toBeLessThan(8);
    expect(map.getBounds().contains(large)).toBe(true);
    // Already in view: nothing moves.
    const center = map.getCenter();
    revealBounds(map, L.latLngBounds([45, -90], [46, -89]));
    expect(map.getCenter()).toEqual(center);
  });

  it('fits bounds given before the map had a size once it gets one (not a dot at zoom 1)', () => {
    undoSize();
    undoSize = giveElementsSize(0, 0);
    const el = document.createElement('div');
    document.body.append(el);
    const hidden = L.map(el, { center: [20, 0], zoom: 1, ...WORLD_MAP_OPTIONS });
    const field = L.latLngBounds([44.0, -123.01], [44.01, -123.0]);
    fitToBounds(hidden, field);
    expect(hidden.getZoom()).toBe(1);
    undoSize();
    undoSize = giveElementsSize(1000, 700);
    hidden.invalidateSize({ pan: false });
    expect(hidden.getZoom()).toBe(12);
    expect(hidden.getBounds().contains(field)).toBe(true);
    hidden.remove();
  });
});
