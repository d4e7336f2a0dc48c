import { describe, expect, it } from 'vitest';
import { ALPHA, makeLinkMeter, MIN_RATE_BYTES } from '../link-meter';

describe('the link as measured', () => {
  it('knows nothing before a sample', () => {
    expect(makeLinkMeter().view()).toBeNull();
  });

  it("takes the round trip from every answer's wait, the rate only from large wire bodies", () => {
    const link = makeLinkMeter(() => 42);
    link.answered({ waitMs: 600, bodyMs: 1, bytes: 2000 });
    expect(link.view()).toEqual({
      bitsPerSecond: null,
      roundTripMs: 600,
      rateFrom: null,
      samples: 1,
      measuredAt: 42,
    });
    // A compressed page: its decoded text (15x) says nothing; its wire bytes do.
    link.answered({ waitMs: 400, bodyMs: 1000, bytes: 15 * 250_000, wireBytes: 250_000 });
    const v = link.view()!;
    expect(v.roundTripMs).toBeCloseTo(600 + ALPHA * (400 - 600));
    expect(v.bitsPerSecond).toBe(2e6);
    expect(v.rateFrom).toBe('service answers');
    // Too small a body to time; no time at all: no rate from them.
    link.answered({ waitMs: 400, bodyMs: 1, bytes: 10, wireBytes: MIN_RATE_BYTES - 1 });
    link.answered({ waitMs: 400, bodyMs: 0, bytes: 10, wireBytes: MIN_RATE_BYTES * 4 });
    expect(link.view()!.bitsPerSecond).toBe(2e6);
  });

  it("prefers a take's raster reads to the service's answers", () => {
    const link = makeLinkMeter();
    link.answered({ waitMs: 100, bodyMs: 100, bytes: 1e6, wireBytes: 1e6 });
    link.transferred(2_500_000, 1000);
    expect(link.view()).toMatchObject({ bitsPerSecond: 20e6, rateFrom: 'raster reads' });
    link.answered({ waitMs: 100, bodyMs: 100, bytes: 1e6, wireBytes: 1e6 });
    expect(link.view()!.bitsPerSecond).toBe(20e6);
    link.transferred(250_000, 1000);
    expect(link.view()!.bitsPerSecond).toBeCloseTo(20e6 + ALPHA * (2e6 - 20e6));
    link.transferred(10, 1000);
    link.transferred(1e6, 0);
    expect(link.view()!.samples).toBe(4);
  });
});
