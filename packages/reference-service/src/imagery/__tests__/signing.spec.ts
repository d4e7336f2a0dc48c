import { randomBytes } from 'node:crypto';
import { SIGNED_URL_MIN_VALIDITY_S } from '@eo/domain';
import { describe, expect, it } from 'vitest';
import { UrlSigner } from '../signing';

const HOUR = 3_600_000;

describe('UrlSigner expiry', () => {
  it('keeps one URL for the first hour after start, then moves by an hour, always a day ahead', () => {
    const start = 1_700_000_123_456; // not on a wall-clock hour: the steps count from here
    let now = start;
    const signer = new UrlSigner(randomBytes(32), () => now);
    const first = signer.sign('/quicklooks/catalog/a/thumbnail.png');
    for (const t of [1, HOUR / 2, HOUR - 1]) {
      now = start + t;
      expect(signer.sign('/quicklooks/catalog/a/thumbnail.png')).toBe(first);
    }
    now = start + HOUR;
    expect(signer.sign('/quicklooks/catalog/a/thumbnail.png')).not.toBe(first);
    for (const t of [0, 1, HOUR - 1, HOUR, 5 * HOUR + 17]) {
      now = start + t;
      const ahead = signer.expiresAt() * 1000 - now;
      expect(ahead).toBeGreaterThanOrEqual(SIGNED_URL_MIN_VALIDITY_S * 1000);
      expect(ahead).toBeLessThanOrEqual(SIGNED_URL_MIN_VALIDITY_S * 1000 + HOUR + 1000);
    }
  });
});
