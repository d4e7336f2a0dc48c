import { describe, expect, it } from 'vitest';
import { CLOUD_COVER_BINS, cloudCoverBin } from '../cloud-bins';

describe('cloud-cover bins', () => {
  it('10 bins of 10 %, the last closed, values outside 0–100 at the nearest end', () => {
    expect(CLOUD_COVER_BINS).toBe(10);
    expect([0, 9.99, 10, 55, 89.9, 90, 100].map(cloudCoverBin)).toEqual([0, 0, 1, 5, 8, 9, 9]);
    expect([-3, 140].map(cloudCoverBin)).toEqual([0, 9]);
  });
});
