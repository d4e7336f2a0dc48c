/**
 * One projection of a search's footprints for the map: the ids mapped once (the catalog
 * store's positions reused), the bounds read from the packed boxes, and the clusters given
 * those boxes and worked out once per new set.
 */
import L from 'leaflet';
import { describe, expect, it } from 'vitest';
import { ClusterLayer } from '../cluster-layer';
import { FootprintLayer } from '../footprint-layer';
import { packFootprints, packFootprintSet } from '../footprints';
import { giveElementsSize } from './layout';
import { square } from './rings';

function setOf(rings: number[][]) {
  const ids = rings.map((_, i) => `s${i}`);
  const offsets = new Uint32Array(rings.length + 1);
  rings.forEach((r, i) => (offsets[i + 1] = offsets[i]! + r.length / 2));
  return { ids, offsets, coords: new Float64Array(rings.flat()) };
}

describe('packed footprints', () => {
  it("keeps the caller's map of these ids instead of building another", () => {
    const set = setOf([square(0, 0), square(5, 5), square(9, 1)]);
    const positions = new Map(set.ids.map((id, i) => [id, i]));
    expect(packFootprintSet(set, positions).indexOf).toBe(positions);
    // Without one, or with one of other ids, it maps them itself.
    const own = packFootprintSet(set).indexOf;
    expect(set.ids.map((id) => own.get(id))).toEqual([0, 1, 2]);
    const stale = new Map([['gone', 0]]);
    const packed = packFootprintSet(set, stale);
    expect(packed.indexOf).not.toBe(stale);
    expect(packed.indexOf.get('s2')).toBe(2);
  });

  it('bounds all footprints, or some, from their boxes', () => {
    const layer = new FootprintLayer();
    layer.setFootprints(
      ['a', 'b', 'none', 'c'],
      [square(10, 40), square(-20, -30, 2), [], square(100, 60)],
    );
    const all = layer.boundsOf()!;
    expect(all.getWest()).toBeCloseTo(-20, 9);
    expect(all.getSouth()).toBeCloseTo(-30, 9);
    expect(all.getEast()).toBeCloseTo(101, 9);
    expect(all.getNorth()).toBeCloseTo(61, 9);
    const some = layer.boundsOf(['a', 'none', 'unknown', 'b'])!;
    expect(
      [some.getWest(), some.getSouth(), some.getEast(), some.getNorth()].map((v) => +v.toFixed(9)),
    ).toEqual([-20, -30, 11, 41]);
    expect(layer.boundsOf(['none', 'unknown'])).toBeNull();
  });
});

describe('clusters of a new set', () => {
  it('are worked out once when the map is fitted to it, in the next frame otherwise', async () => {
    const undo = giveElementsSize(800, 600);
    try {
      const el = document.createElement('div');
      document.body.append(el);
      const map = L.map(el, {
        center: [0, 0],
        zoom: 1,
        zoomAnimation: false,
        fadeAnimation: false,
      });
      let refreshes = 0;
      class Counting extends ClusterLayer {
        override refresh(): void {
          refreshes++;
          super.refresh();
        }
      }
      const clusters = new Counting().addTo(map);
      const rings = Array.from({ length: 40 }, (_, i) =>
        square(10 + (i % 8) * 0.01, 45 + i * 0.001, 0.01),
      );
      const packed = packFootprints(
        rings.map((_, i) => `c${i}`),
        rings,
      );
      const nextFrame = () =>
        new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

      refreshes = 0;
      clusters.setBoxes(packed.boxes);
      map.setView([45, 10], 2, { animate: false }); // the fit: a moveend
      expect(refreshes).toBe(1);
      await nextFrame();
      expect(refreshes).toBe(1);
      expect(clusters.clusters.reduce((n, c) => n + c.count, 0)).toBe(40);

      clusters.setBoxes(packed.boxes.slice(0, 20 * 4));
      expect(refreshes).toBe(1);
      await nextFrame();
      expect(refreshes).toBe(2);
      expect(clusters.clusters.reduce((n, c) => n + c.count, 0)).toBe(20);
      map.remove();
    } finally {
      undo();
    }
  });
});
