/**
 * The link to the service as measured, for the size and time a take offline will need (one
 * meter per connection: a new URL or key is a new link).
 *
 * - The round trip: each answered request's `wait` (request sent -> response head), the very
 *   figure the api-client's pager sizes its read-ahead from (round trip plus service time: an
 *   upper bound, which is what a take will meet too).
 * - The rate: a take's raster range reads (their bytes are sent as stored, no content coding:
 *   what the next take will move), over the time its tiles took; until there is one, a large
 *   answer's bytes on the wire (its Content-Length, compressed) over its body time. A page's
 *   decoded text would overstate a compressed link ~15 times, so only the wire size counts, and
 *   only bodies of `MIN_RATE_BYTES` or more (a small body arrives with its head: no time).
 *
 * Running averages, the newest sample weighted `ALPHA` (the pager's own weight: links change).
 */
import type { ResponseTiming } from '@eo/api-client';
import type { LinkView } from '../shared/contract';

/** Weight of the newest sample (api-client's read-ahead uses the same). */
export const ALPHA = 0.3;
/** Smallest body (wire bytes) whose time says something about the rate. */
export const MIN_RATE_BYTES = 64 * 1024;

export interface LinkMeter {
  /** An answered request of this connection (its client's `onResponse`). */
  answered(timing: ResponseTiming | undefined): void;
  /** A take's raster reads: bytes fetched over the milliseconds its tiles took. */
  transferred(bytes: number, ms: number): void;
  /** What is known; null before any sample. */
  view(): LinkView | null;
}

export function makeLinkMeter(now: () => number = Date.now): LinkMeter {
  let roundTripMs: number | null = null;
  let rate: { bps: number; from: 'raster reads' | 'service answers' } | null = null;
  let samples = 0;
  let measuredAt = 0;
  const mix = (old: number | null, x: number) => (old === null ? x : old + ALPHA * (x - old));
  const sampled = () => {
    samples++;
    measuredAt = now();
  };

  return {
    answered(timing) {
      if (!timing || !Number.isFinite(timing.waitMs) || timing.waitMs < 0) return;
      roundTripMs = mix(roundTripMs, timing.waitMs);
      const wire = timing.wireBytes;
      // Raster reads, once measured, are the better figure for raster bytes.
      if (rate?.from !== 'raster reads' && wire !== undefined && wire >= MIN_RATE_BYTES) {
        if (timing.bodyMs > 0) {
          const bps = (wire * 8) / (timing.bodyMs / 1000);
          rate = { bps: mix(rate?.bps ?? null, bps), from: 'service answers' };
        }
      }
      sampled();
    },
    transferred(bytes, ms) {
      if (!(bytes >= MIN_RATE_BYTES) || !(ms > 0)) return;
      const bps = (bytes * 8) / (ms / 1000);
      rate = {
        bps: rate?.from === 'raster reads' ? mix(rate.bps, bps) : bps,
        from: 'raster reads',
      };
      sampled();
    },
    view() {
      if (samples === 0) return null;
      return {
        bitsPerSecond: rate?.bps ?? null,
        roundTripMs,
        rateFrom: rate?.from ?? null,
        samples,
        measuredAt,
      };
    },
  };
}
