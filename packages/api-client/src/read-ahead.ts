/**
 * How many pages a pager requests ahead of the one it hands over: off, a fixed depth, or
 * (the default) a depth chosen from what the pass measures.
 *
 * A page costs the network `wait` (request sent -> response head: round trip plus service time)
 * and `body` (head -> whole body), and costs the consumer `work` (validation plus the caller's
 * own time before it asks for the next page). With `d` pages requested ahead, a page comes every
 * max(body, work, (wait + body) / d) or so: the round trips are hidden once
 * d >= (wait + body) / max(body, work). So latency that dominates (a satellite link, small or
 * compressed pages, a quick consumer) gets more pages in flight; bandwidth that dominates (long
 * bodies) or a slow consumer gets one or two; and a local service whose answer is a small share
 * of the consumer's time (under a tenth) gets none: a second page alive would only cost memory
 * and CPU.
 */
import type { ResponseTiming } from './transport';

/**
 * Most pages requested ahead by the adaptive window: one below the client's default concurrency
 * (6), so a sync reading ahead leaves a slot to other calls. A 600 ms satellite round trip at
 * 2 Mbit/s needs 2; 100 ms at 20 Mbit/s needs more than 4 once the sync writes on a thread of
 * its own (`@eo/sync`'s write thread: ~50 ms of reading a page against a wait of ~0.4 s, the
 * service's queue included): its first sync took 12.0 s with 4, 10.7 s with 5, 6 or 8
 * (`bench/wire.ts` of @eo/sync, 100,000 records).
 */
export const READ_AHEAD_MAX = 5;

/** Default cap on response text held ahead of the caller (arrived or expected), in characters. */
export const READ_AHEAD_BYTES = 32 * 1024 * 1024;

/**
 * A per-page step shorter than this is not worth a deeper window: a consumer that takes no time
 * would otherwise turn a few milliseconds of local service time into the maximum depth.
 */
const MIN_STEP_MS = 10;

/** Below this share of a page's step, the wait is not worth holding a second page for. */
const NOT_WORTH = 0.1;

/** Weight of the newest sample in the running averages (links change: follow them, smoothly). */
const ALPHA = 0.3;

export type ReadAheadSetting = boolean | number | undefined;

class Average {
  private v: number | undefined;
  add(x: number): void {
    this.v = this.v === undefined ? x : this.v + ALPHA * (x - this.v);
  }
  get value(): number | undefined {
    return this.v;
  }
}

export class ReadAheadWindow {
  private readonly fixed: number | undefined;
  private readonly wait = new Average();
  private readonly body = new Average();
  private readonly bytes = new Average();
  private readonly work = new Average();

  /**
   * `setting`: `false` or 0 = off, a positive integer = that many pages, `true` or undefined =
   * adaptive (0 to READ_AHEAD_MAX). `maxBytes` bounds the text held ahead.
   */
  constructor(
    setting: ReadAheadSetting,
    private readonly maxBytes: number = READ_AHEAD_BYTES,
  ) {
    if (typeof setting === 'number' && (!Number.isInteger(setting) || setting < 0))
      throw new RangeError('prefetch must be a boolean or an integer >= 0');
    if (!(maxBytes > 0)) throw new RangeError('readAheadBytes must be a number > 0');
    this.fixed = setting === false ? 0 : typeof setting === 'number' ? setting : undefined;
  }

  /** A page's response arrived. */
  observeNetwork(t: ResponseTiming | undefined): void {
    if (!t) return;
    this.wait.add(t.waitMs);
    this.body.add(t.bodyMs);
    this.bytes.add(t.bytes);
  }

  /** The consumer spent this long on a page (from its arrival to the request for the next). */
  observeWork(ms: number): void {
    this.work.add(ms);
  }

  /** Pages to have requested beyond the one being handed over. */
  get depth(): number {
    if (this.fixed !== undefined) return this.fixed;
    const wait = this.wait.value;
    const body = this.body.value ?? 0;
    if (wait === undefined) return 0;
    const work = this.work.value;
    const step = Math.max(body, work ?? 0, MIN_STEP_MS);
    const want = (wait + body) / step;
    if (want < NOT_WORTH && work !== undefined) return 0;
    // Until the consumer's time is known, one page ahead: never more than the old read-ahead.
    if (work === undefined) return 1;
    return Math.min(READ_AHEAD_MAX, Math.max(1, Math.ceil(want)));
  }

  /** Whether one more page may be requested while `held` pages are in flight or unconsumed. */
  allows(held: number): boolean {
    if (held === 0) return true;
    const size = this.bytes.value ?? 0;
    return (held + 1) * size <= this.maxBytes;
  }
}
