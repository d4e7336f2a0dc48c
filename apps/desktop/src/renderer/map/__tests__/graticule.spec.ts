import { describe, expect, it } from 'vitest';
import { formatDegrees, graticuleLines, graticuleStep } from '../graticule';
import { mercX, mercY, worldScale } from '../mercator';

describe('the graticule', () => {
  it('steps from 30° at the world to fractions of a degree at a scene', () => {
    expect(graticuleStep(worldScale(2))).toBe(30);
    expect(graticuleStep(worldScale(6))).toBe(5);
    expect(graticuleStep(worldScale(11))).toBeLessThanOrEqual(0.1);
    // Lines at least 100 px apart (below zoom 3 the 30° lines are the widest step).
    for (let z = 3; z <= 14; z++) {
      expect((graticuleStep(worldScale(z)) * worldScale(z)) / 360).toBeGreaterThanOrEqual(100);
    }
  });

  it('labels degrees with their hemisphere', () => {
    expect(formatDegrees(0, 'lat')).toBe('0°');
    expect(formatDegrees(44.5, 'lat')).toBe('44.5°N');
    expect(formatDegrees(-123.25, 'lon')).toBe('123.25°W');
    expect(formatDegrees(0.1 + 0.2, 'lon')).toBe('0.3°E');
  });

  it('lists the lines crossing a view, at their screen positions', () => {
    const scale = worldScale(8);
    // A 1000x800 view whose top-left corner is at 45N 124W.
    const view = {
      scale,
      originX: mercX(-124) * scale,
      originY: mercY(45) * scale,
      width: 1000,
      height: 800,
    };
    const { meridians, parallels } = graticuleLines(view);
    expect(meridians.map((m) => m.label)).toContain('123°W');
    const m123 = meridians.find((m) => m.label === '123°W')!;
    expect(m123.at).toBeCloseTo(mercX(-123) * scale - view.originX, 6);
    expect(parallels.map((p) => p.label)).toContain('44°N');
    for (const p of parallels) expect(p.at).toBeGreaterThanOrEqual(0);
  });
});
