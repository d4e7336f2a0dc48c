import { describe, expect, it } from 'vitest';
import { boxAreaM2, estimateTake, HEADER_BYTES } from '../take-estimate';

describe('the estimate of a take, before it starts', () => {
  it('a 2 km x 2 km site at 10 m, four bands: 40,000 px, ~320 KB, seconds at 2 Mbit/s', () => {
    const e = estimateTake(2000 * 2000, 10, 4);
    expect(e.pixels).toBe(40_000);
    expect(e.bytes).toBe(40_000 * 4 * 2 * 0.5 + HEADER_BYTES);
    expect(e.seconds[0]).toBeCloseTo((e.bytes * 8) / 2e6, 6);
    expect(e.seconds[1]).toBeCloseTo(e.seconds[0]! / 10, 6);
    // An overview at 40 m: 16 times fewer pixels.
    expect(estimateTake(2000 * 2000, 40, 4).pixels).toBe(2_500);
  });

  it("measures a lon/lat box's area at its latitude", () => {
    // 0.01° x 0.01° at the equator ~1.113 km x 1.113 km; at 60° N half as wide.
    expect(boxAreaM2([0, 0, 0.01, 0.01]) / 1e6).toBeCloseTo(1.239, 2);
    expect(boxAreaM2([0, 59.995, 0.01, 60.005]) / boxAreaM2([0, -0.005, 0.01, 0.005])).toBeCloseTo(
      0.5,
      2,
    );
  });
});
