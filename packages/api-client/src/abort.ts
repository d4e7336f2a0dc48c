/** Small helpers for AbortSignal-aware waiting that work the same in Node and Electron. */
import type { SleepLike } from './options';

/** The abort reason as an Error-ish value for internal signalling (never shown to callers). */
export const ABORTED = Symbol('aborted');

/** Resolves after `ms`, or rejects with ABORTED as soon as `signal` fires. */
export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(ABORTED);
    const onAbort = () => {
      clearTimeout(timer);
      reject(ABORTED);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs an injected sleep but rejects with ABORTED when the signal fires first, so cancellation
 * works even with a sleep that ignores its signal.
 */
export function abortableSleep(
  sleep: SleepLike | undefined,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (!sleep) return defaultSleep(ms, signal);
  if (!signal) return sleep(ms);
  if (signal.aborted) return Promise.reject(ABORTED);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
    sleep(ms, signal).then(
      () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(signal.aborted ? ABORTED : e);
      },
    );
  });
}
