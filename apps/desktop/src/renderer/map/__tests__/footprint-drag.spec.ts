import L from 'leaflet';
import { describe, expect, it } from 'vitest';
import { FootprintLayer } from '../footprint-layer';

describe('FootprintLayer while the map is dragged', () => {
  it('hovers nothing during a drag, and hovers again once it ends', () => {
    const el = document.createElement('div');
    document.body.append(el);
    const map = L.map(el, { center: [0, 0], zoom: 3 });
    const hovers: Array<string | null> = [];
    const layer = new FootprintLayer({ onHover: (id) => hovers.push(id) }).addTo(map);
    layer.setFootprints(['a'], [[10, 10, 20, 10, 20, 20, 10, 20, 10, 10]]);
    const draggable = (map.dragging as unknown as { _draggable: { _moving: boolean } })._draggable;
    const over = { latlng: L.latLng(15, 15), originalEvent: {} as MouseEvent };

    draggable._moving = true;
    map.fire('mousemove', over);
    expect(hovers).toEqual([]);
    expect(layer.hoveredId).toBeNull();

    // The highlight canvas is in the page only while something is highlighted.
    const highlight = el.querySelectorAll<HTMLCanvasElement>('.eo-canvas-view__canvas')[1]!;
    expect(highlight.style.display).toBe('none');
    draggable._moving = false;
    map.fire('mousemove', over);
    expect(hovers).toEqual(['a']);
    expect(highlight.style.display).toBe('');
    map.remove();
  });
});
