/** The service's jobs plus a few that misbehave on purpose, for the pool's own tests. */
import { threadId } from 'node:worker_threads';
import { renderJobs } from '../jobs';

export const testJobs = {
  ...renderJobs,
  /** Which thread ran it (0 is the main thread). */
  whereAmI(_input: null): number {
    return threadId;
  },
  /** Holds its thread until `ms` passed (Infinity: for good), then says which thread it was. */
  spin(input: { ms: number }): number {
    const end = performance.now() + input.ms;
    while (performance.now() < end);
    return threadId;
  },
  fail(input: { message: string }): never {
    throw new RangeError(input.message);
  },
  /** Keeps allocating until the thread's heap limit ends it. */
  hog(_input: null): number {
    const kept: number[][] = [];
    for (;;) kept.push(Array.from({ length: 1 << 16 }, (_, i) => i + kept.length));
  },
  /** Bytes of `n` length, moved to the main thread. */
  bytes(input: { n: number }): Uint8Array {
    return new Uint8Array(input.n).fill(7);
  },
};
