/** A FIFO counting semaphore: at most `limit` holders at once; waiting can be aborted. */
import { ABORTED } from './abort';

export class Semaphore {
  private active = 0;
  private readonly waiters: Array<{ grant: () => void }> = [];

  constructor(private readonly limit: number) {}

  /** Number of holders right now (for tests and diagnostics). */
  get inUse(): number {
    return this.active;
  }

  /** Resolves with a release function once a slot is free; rejects with ABORTED on abort. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(ABORTED);
    if (this.active < this.limit) {
      this.active++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(this.releaser());
        },
      };
      const onAbort = () => {
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(ABORTED);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      // Hand the slot straight to the next waiter: `active` stays the same.
      if (next) next.grant();
      else this.active--;
    };
  }
}
