import { describe, expect, it } from 'vitest';
import { boxesOverlap, placeLabels, type LabelCandidate } from '../label-placement';

/** A fixed pseudo-random sequence (so a failure can be replayed). */
function lcg(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1664525 + 1013904223) % 2 ** 32;
    return s / 2 ** 32;
  };
}

describe('placeLabels', () => {
  it('places no two labels (or dots) over each other, in a dense field', () => {
    const rnd = lcg(7);
    const candidates: LabelCandidate[] = Array.from({ length: 3000 }, () => ({
      x: rnd() * 800,
      y: rnd() * 600,
      width: 20 + rnd() * 80,
      height: 14,
    }));
    const placed = placeLabels(candidates, 800, 600, 10_000);
    expect(placed.length).toBeGreaterThan(50);
    expect(placed.length).toBeLessThan(candidates.length);
    for (let i = 0; i < placed.length; i++) {
      const a = placed[i]!.box;
      expect(a.x0).toBeGreaterThanOrEqual(0);
      expect(a.y0).toBeGreaterThanOrEqual(0);
      expect(a.x1).toBeLessThanOrEqual(800);
      expect(a.y1).toBeLessThanOrEqual(600);
      for (let j = i + 1; j < placed.length; j++) {
        expect(boxesOverlap(a, placed[j]!.box), `labels ${i} and ${j}`).toBe(false);
      }
    }
  });

  it('gives the first candidates (the largest places) their labels first', () => {
    // Two places at one spot: only the first is labelled.
    const c = { x: 100, y: 100, width: 60, height: 14 };
    const placed = placeLabels([c, { ...c, x: 101 }], 400, 300);
    expect(placed.map((p) => p.index)).toEqual([0]);
  });

  it('moves a label to the left of its dot at the right edge of the view', () => {
    const placed = placeLabels([{ x: 390, y: 100, width: 60, height: 14 }], 400, 300);
    expect(placed[0]!.box.x1).toBeLessThanOrEqual(390);
  });

  it('keeps labels off reserved boxes (the graticule degree labels)', () => {
    const reserved = [{ x0: 90, y0: 80, x1: 200, y1: 120 }];
    const placed = placeLabels([{ x: 100, y: 100, width: 60, height: 14 }], 400, 300, 10, reserved);
    // The dot lies in the reserved box: no label at all.
    expect(placed).toEqual([]);
    const beside = placeLabels([{ x: 80, y: 100, width: 60, height: 14 }], 400, 300, 10, reserved);
    expect(beside).toHaveLength(1);
    expect(boxesOverlap(beside[0]!.box, reserved[0]!)).toBe(false);
  });

  it('stops at the limit', () => {
    const candidates = Array.from({ length: 50 }, (_, i) => ({
      x: 10 + (i % 5) * 150,
      y: 20 + Math.floor(i / 5) * 30,
      width: 40,
      height: 14,
    }));
    expect(placeLabels(candidates, 800, 400, 7)).toHaveLength(7);
  });
});
