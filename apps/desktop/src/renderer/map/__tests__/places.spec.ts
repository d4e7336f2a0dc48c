import { describe, expect, it } from 'vitest';
import { labelZoom, PLACE_TIER_ZOOMS, tiersForZoom } from '../places';

describe('place tiers', () => {
  it('load from the zoom at which one of their places gets a label, not before', () => {
    PLACE_TIER_ZOOMS.forEach((tier, i) => {
      // The tier's largest places: everything above its bound, up to the next larger tier's.
      const largest =
        i === 0 ? Number.MAX_SAFE_INTEGER : PLACE_TIER_ZOOMS[i - 1]!.minPopulation - 1;
      expect(tier.fromZoom, `tier ${i}`).toBe(labelZoom(largest));
    });
  });

  it('leave the world view without places (none is labelled there)', () => {
    expect(tiersForZoom(2)).toEqual([]);
    expect(tiersForZoom(3)).toEqual([0]);
    expect(tiersForZoom(10)).toEqual([0, 1, 2, 3]);
  });
});
