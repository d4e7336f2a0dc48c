/**
 * When the service starts closing: the one flag that the error handling (new requests answered
 * 503, errors.ts) and the quiet close (connections ended once idle, quiet-close.ts) both read.
 * Set by a preClose hook, registered before theirs, so every later hook sees it.
 */
import type { FastifyInstance } from 'fastify';

export interface Closing {
  /** True from the first preClose hook on. */
  readonly started: boolean;
  /** Runs `fn` once, when closing starts. */
  onStart(fn: () => void): void;
}

export function watchClosing(app: FastifyInstance): Closing {
  const listeners: (() => void)[] = [];
  let started = false;
  app.addHook('preClose', async () => {
    started = true;
    for (const fn of listeners) fn();
  });
  return {
    get started() {
      return started;
    },
    onStart: (fn) => void listeners.push(fn),
  };
}
