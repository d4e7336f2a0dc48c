import { describe, expect, it } from 'vitest';
import {
  boxAreaM2,
  estimateTake,
  formatRate,
  formatSeconds,
  HEADER_BYTES,
  TAKE_ROUND_TRIPS,
  timeOnLink,
} from '../take-estimate';

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

describe('the time of a take on the link', () => {
  it('on the measured rate, with its round trips, when there is one', () => {
    const t = timeOnLink(2_500_000, {
      bitsPerSecond: 4e6,
      roundTripMs: 500,
      rateFrom: 'raster reads',
    });
    expect(t).toEqual({
      measured: true,
      seconds: 5 + (TAKE_ROUND_TRIPS * 500) / 1000,
      bitsPerSecond: 4e6,
      roundTripMs: 500,
      rateFrom: 'raster reads',
    });
  });

  it('on the fixed 2 and 20 Mbit/s without a measured rate (round trips added when known)', () => {
    expect(timeOnLink(2_500_000, null)).toEqual({
      measured: false,
      seconds: [10, 1],
      roundTripMs: null,
    });
    const t = timeOnLink(2_500_000, { bitsPerSecond: null, roundTripMs: 250, rateFrom: null });
    expect(t).toMatchObject({ measured: false, seconds: [11, 2] });
  });

  it('says rates and times as people read them', () => {
    expect(formatRate(2.4e6)).toBe('2.4 Mbit/s');
    expect(formatRate(20e6)).toBe('20 Mbit/s');
    expect(formatRate(640_000)).toBe('640 kbit/s');
    expect(formatSeconds(0.2)).toBe('1 s');
    expect(formatSeconds(240)).toBe('4 min');
  });
});
