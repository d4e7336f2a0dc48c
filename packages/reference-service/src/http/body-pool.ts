/**
 * Buffers lent to responses whose body is joined per request (an orders page without the page
 * cache, a catalog search page: 200 to 400 kB each), and taken back once the response is sent.
 *
 * Why not a fresh Buffer per response: memory of that size lives outside V8's heap. V8 frees
 * those Buffers in batches, glibc hands the freed memory back to the kernel, and the next
 * response faults every page of its fresh Buffer in again: about a third of an uncached orders
 * request, measured on 2026-11-29 (docs/benchmarks.md). A lent Buffer is written over again
 * instead; the few kept are the pool's whole cost in memory.
 *
 * A Buffer is taken back on the response's `finish` (its bytes are with the kernel, or, with
 * compression, were read before the compressed ones were sent); a response that never finishes
 * (the client went away) keeps its Buffer, and the garbage collector takes it.
 */
import type { ServerResponse } from 'node:http';

export interface BodyPoolOptions {
  /** Free Buffers kept for the next responses (more are lent at once under more concurrency). */
  readonly kept: number;
  /** The size of the smallest Buffer made: most bodies fit one. */
  readonly smallestBytes: number;
  /** A Buffer above this is made for its one response and not kept. */
  readonly largestKeptBytes: number;
}

const DEFAULTS: BodyPoolOptions = {
  kept: 16,
  smallestBytes: 512 * 1024,
  largestKeptBytes: 4 * 1024 * 1024,
};

export class BodyPool {
  readonly #options: BodyPoolOptions;
  readonly #free: ArrayBuffer[] = [];
  /** What is lent now: only these come back (a body of another origin is left alone). */
  readonly #lent = new WeakSet<ArrayBufferLike>();

  constructor(options: Partial<BodyPoolOptions> = {}) {
    this.#options = { ...DEFAULTS, ...options };
  }

  /** Free Buffers held now (for tests and figures). */
  get freeCount(): number {
    return this.#free.length;
  }

  /** A Buffer of at least `bytes` to write one response body into (its content is old bytes). */
  readonly take = (bytes: number): Buffer => {
    let i = this.#free.length - 1;
    while (i >= 0 && this.#free[i]!.byteLength < bytes) i--;
    const slab =
      i >= 0
        ? this.#free.splice(i, 1)[0]!
        : Buffer.allocUnsafeSlow(Math.max(this.#options.smallestBytes, bytes)).buffer;
    this.#lent.add(slab);
    return Buffer.from(slab as ArrayBuffer, 0, slab.byteLength);
  };

  /** `body`, if it is (a view of) a Buffer lent here, comes back when `res` has finished. */
  returnWhenSent(res: ServerResponse, body: Buffer): void {
    const slab = body.buffer;
    if (!this.#lent.has(slab)) return;
    res.once('finish', () => this.#giveBack(slab));
  }

  #giveBack(slab: ArrayBufferLike): void {
    // Once only: `finish` can be heard twice (an injected response emits its own).
    if (!this.#lent.delete(slab)) return;
    const { kept, largestKeptBytes } = this.#options;
    if (this.#free.length < kept && slab.byteLength <= largestKeptBytes) {
      this.#free.push(slab as ArrayBuffer);
    }
  }
}
