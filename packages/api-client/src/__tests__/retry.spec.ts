/** Retry timing in isolation: backoff with full jitter, Retry-After parsing, option checks. */
import { describe, expect, it } from 'vitest';
import { backoffDelay, createEoClient, parseRetryAfter } from '../index';

const retry = { maxAttempts: 4, baseDelayMs: 250, maxDelayMs: 10_000, maxRetryAfterMs: 60_000 };

describe('backoffDelay', () => {
  it('doubles the ceiling per attempt and scales it by the jitter draw', () => {
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, retry, () => 1))).toEqual([
      250, 500, 1000, 2000,
    ]);
    expect([1, 2, 3].map((n) => backoffDelay(n, retry, () => 0.5))).toEqual([125, 250, 500]);
    expect(backoffDelay(3, retry, () => 0)).toBe(0);
  });
  it('never exceeds maxDelayMs', () => {
    expect(backoffDelay(20, retry, () => 1)).toBe(10_000);
    expect(backoffDelay(200, retry, () => 0.999)).toBeLessThanOrEqual(10_000);
  });
  it('clamps a random source outside [0, 1]', () => {
    expect(backoffDelay(1, retry, () => 7)).toBe(250);
    expect(backoffDelay(1, retry, () => -1)).toBe(0);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.UTC(2024, 4, 17, 9, 30, 0);
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('1.5', now)).toBe(1_500);
  });
  it('reads an HTTP-date relative to now, never negative', () => {
    expect(parseRetryAfter('Fri, 17 May 2024 09:30:42 GMT', now)).toBe(42_000);
    expect(parseRetryAfter('Fri, 17 May 2024 09:00:00 GMT', now)).toBe(0);
  });
  it('ignores missing or unreadable values', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});

describe('options', () => {
  it('rejects a base URL that is not http(s) and nonsensical numbers', () => {
    expect(() => createEoClient({ baseUrl: '127.0.0.1:80', apiKey: 'k' })).toThrow(/baseUrl/);
    expect(() => createEoClient({ baseUrl: 'http://x', apiKey: 'k', concurrency: 0 })).toThrow(
      /concurrency/,
    );
    expect(() =>
      createEoClient({ baseUrl: 'http://x', apiKey: 'k', retry: { maxAttempts: 0 } }),
    ).toThrow(/maxAttempts/);
  });
  it('toString shows the service, never the key', () => {
    const c = createEoClient({ baseUrl: 'http://127.0.0.1:9/', apiKey: 'eok_abcdef' });
    expect(String(c)).toBe('EoClient(http://127.0.0.1:9)');
  });
});
