/**
 * `checkPackageInWorker(file)`: `checkPackageFile` in a worker thread of its own, with a heap
 * limit and a time limit (hardening's rule for hostile imports, `importFileInWorker` of
 * @eo/formats, applied to field packages): a package made to hurt costs the caller's process
 * neither its memory nor its event loop. Every refusal is a `PackageError` with its reason, the
 * limits' included. The time allowed grows with the file: a legitimate package of gigabytes is
 * read whole (each picture hashed) in tens of seconds.
 */
import type { Worker } from 'node:worker_threads';
import { startThread } from '@eo/formats/thread';
import type { CheckedPackage } from './check';
import { PackageError } from './read';

export interface PackageCheckLimits {
  /** Old-generation heap of the check's thread, MB. */
  readonly heapMb: number;
  /** Time the check may take once its thread is loaded: a base, and per GB of file, ms. */
  readonly baseMs: number;
  readonly perGbMs: number;
}

export const PACKAGE_CHECK_LIMITS: PackageCheckLimits = {
  heapMb: 320,
  baseMs: 60_000,
  perGbMs: 60_000,
};

export type CheckAnswer =
  | { readonly ready: true }
  | { readonly checked: CheckedPackage }
  | { readonly refused: string }
  | { readonly failed: string };

/** Time a thread may take to load (from sources under tsx, seconds on a busy machine), ms. */
const LOAD_MS = 120_000;

/** The thread entry; the desktop's bundle rewrites this name (electron.vite.config.ts). */
const PACKAGE_CHECK_THREAD_ENTRY = './check-thread.ts';

export function checkPackageInWorker(
  file: string,
  bytes: number,
  limits: Partial<PackageCheckLimits> = {},
): Promise<CheckedPackage> {
  const { heapMb, baseMs, perGbMs } = { ...PACKAGE_CHECK_LIMITS, ...limits };
  const timeMs = baseMs + Math.ceil((bytes / 1024 ** 3) * perGbMs);
  const thread: Worker = startThread(new URL(PACKAGE_CHECK_THREAD_ENTRY, import.meta.url), {
    name: 'package-check',
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 32 },
  });
  return new Promise<CheckedPackage>((resolve, reject) => {
    let settled = false;
    const settle = (f: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void thread.terminate();
      f();
    };
    const tooLong = (ms: number, what: string) =>
      setTimeout(() => settle(() => reject(new PackageError(what))), ms);
    let timer = tooLong(LOAD_MS, `the package check could not start within ${LOAD_MS / 1000} s`);
    thread.on('message', (answer: CheckAnswer) => {
      if ('ready' in answer) {
        clearTimeout(timer);
        timer = tooLong(
          timeMs,
          `reading the package took longer than ${Math.round(timeMs / 1000)} s, the limit for its size: it is damaged or not ours`,
        );
        return;
      }
      settle(() => {
        if ('checked' in answer) resolve(answer.checked);
        else if ('refused' in answer) reject(new PackageError(answer.refused));
        else reject(new Error(`the package check failed: ${answer.failed}`));
      });
    });
    let why: Error | undefined;
    thread.on('error', (e) => (why = e));
    thread.once('exit', () =>
      settle(() =>
        reject(
          (why as NodeJS.ErrnoException | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new PackageError(
                `reading the package needed more than ${heapMb} MB of memory, the limit: it is damaged or not ours`,
              )
            : new Error(`the package check's thread ended (${why?.message ?? 'no answer'})`),
        ),
      ),
    );
    thread.postMessage({ file });
  });
}
