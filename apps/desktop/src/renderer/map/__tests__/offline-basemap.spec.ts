/**
 * The offline basemap loads what its zoom asks for, from the build's data (the vitest config
 * runs the same Vite plugin as the app's build): water at the world, the largest places from zoom 3,
 * more place tiers and the 1:10m land at scene scale.
 */
import L from 'leaflet';
import { afterEach, describe, expect, it } from 'vitest';
import { createOfflineBasemap, type OfflineBasemap } from '../offline-basemap';
import { loadPlaceTier, tiersForZoom } from '../places';

let map: L.Map | null = null;
let basemap: OfflineBasemap | null = null;
afterEach(() => {
  basemap?.remove();
  map?.remove();
  basemap = null;
  map = null;
  document.body.innerHTML = '';
});

function mapAt(zoom: number): L.Map {
  const el = document.createElement('div');
  el.style.width = '800px';
  el.style.height = '600px';
  document.body.appendChild(el);
  return L.map(el, { center: [44.05, -123.09], zoom });
}

describe('createOfflineBasemap', () => {
  it('puts the land under the tile pane and the labels over it', () => {
    map = mapAt(3);
    basemap = createOfflineBasemap(map);
    const z = (pane: string) => Number(map!.getPane(pane)!.style.zIndex);
    // Leaflet's tile pane is at 200 (leaflet.css), the footprints at 390.
    expect(z('eo-basemap')).toBeLessThan(200);
    expect(z('eo-basemap-labels')).toBeGreaterThan(200);
    expect(z('eo-basemap-labels')).toBeLessThan(390);
  });

  it('loads the place tiers of the zoom, and more as the map zooms in', async () => {
    map = mapAt(3);
    basemap = createOfflineBasemap(map);
    await basemap.idle();
    const shown = () => (basemap!.labels as unknown as { places: { names: string[] }[] }).places;
    expect(shown()).toHaveLength(tiersForZoom(3).length);
    expect(shown()[0]!.names).toContain('Portland');
    map.setZoom(10, { animate: false });
    await basemap.idle();
    expect(shown()).toHaveLength(4);
    // Eugene, Oregon (about 170,000 people) and Coburg (about 1,000) are both there.
    const all = shown().flatMap((p) => p.names);
    expect(all).toContain('Eugene');
    expect(all).toContain('Coburg');
  });

  it('shares each tier between maps (loaded once)', async () => {
    expect(loadPlaceTier(0)).toBe(loadPlaceTier(0));
    await expect(loadPlaceTier(9)).rejects.toThrow(/no place tier 9/);
  });
});
