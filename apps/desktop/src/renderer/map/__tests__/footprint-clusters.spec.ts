import { describe, expect, it } from 'vitest';
import { clusterFootprints, DOT_PIXELS } from '../footprint-clusters';
import { packFootprints } from '../footprints';
import { mercX, mercY, worldScale } from '../mercator';
import { square } from './rings';

/** The boxes the clusters are given: the footprint layer's (packed) ones. */
const footprintBoxes = (rings: number[][]) =>
  packFootprints(
    rings.map((_, i) => `r${i}`),
    rings,
  ).boxes;
const worldView = (zoom: number) => ({
  scale: worldScale(zoom),
  originX: 0,
  originY: 0,
  width: worldScale(zoom),
  height: worldScale(zoom),
});

describe('clusterFootprints', () => {
  it('bunches dots in one cell into a cluster with their count and box', () => {
    const rings = [square(10, 50, 0.1), square(10.2, 50.1, 0.1), square(10.1, 50.2, 0.1)];
    const clusters = clusterFootprints(footprintBoxes(rings), worldView(3));
    expect(clusters).toHaveLength(1);
    expect(clusters[0]!.count).toBe(3);
    const [x0, , x1] = clusters[0]!.box;
    expect(x0).toBeCloseTo(mercX(10), 9);
    expect(x1).toBeCloseTo(mercX(10.3), 9);
  });

  it('leaves a lone dot, and footprints big enough to see, as footprints', () => {
    const rings = [square(10, 50, 0.1), square(-100, -20, 0.1), square(-100.1, -20.1, 40), []];
    const clusters = clusterFootprints(footprintBoxes(rings), worldView(3));
    expect(clusters).toEqual([]);
  });

  it('stops clustering once the footprints are big enough on screen (zoomed in)', () => {
    const rings = [square(10, 50, 0.1), square(10.05, 50.05, 0.1)];
    const boxes = footprintBoxes(rings);
    expect(clusterFootprints(boxes, worldView(4))).toHaveLength(1);
    // 0.1° is DOT_PIXELS wide somewhere below zoom 12.
    const zoom = Math.ceil(Math.log2((DOT_PIXELS * 360) / 0.1 / 256));
    const view = {
      scale: worldScale(zoom),
      originX: mercX(9.9) * worldScale(zoom),
      originY: mercY(50.3) * worldScale(zoom),
      width: 800,
      height: 600,
    };
    expect(clusterFootprints(boxes, view)).toEqual([]);
  });

  it('counts every dot once across many cells', () => {
    const rings: number[][] = [];
    for (let i = 0; i < 500; i++)
      rings.push(square(-170 + (i % 50) * 6.8, -60 + Math.floor(i / 50) * 12, 0.05));
    const clusters = clusterFootprints(footprintBoxes(rings), worldView(2));
    // Every dot is either in a cluster or alone in its cell.
    const clustered = clusters.reduce((n, c) => n + c.count, 0);
    expect(clustered).toBeGreaterThan(400);
    expect(clustered).toBeLessThanOrEqual(500);
  });

  it('boxes are the boxes of every point projected, NaN when empty', () => {
    let seed = 3;
    const rnd = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    const rings: number[][] = [[]];
    for (let i = 0; i < 200; i++) {
      const ring: number[] = [];
      // Up to 8 points, past the Mercator clamp too (within 180 degrees of each other: a ring
      // crossing the antimeridian is unwrapped, footprints.ts).
      for (let k = 0; k < 3 + (i % 6); k++) ring.push(-90 + rnd() * 170, -89 + rnd() * 178);
      rings.push(ring);
    }
    const boxes = footprintBoxes(rings);
    expect(boxes.slice(0, 4).every(Number.isNaN)).toBe(true);
    rings.slice(1).forEach((ring, j) => {
      const xs: number[] = [];
      const ys: number[] = [];
      for (let k = 0; k < ring.length; k += 2) {
        xs.push(mercX(ring[k]!));
        ys.push(mercY(ring[k + 1]!));
      }
      const want = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
      expect([...boxes.slice((j + 1) * 4, (j + 2) * 4)]).toEqual(want);
    });
  });
});
