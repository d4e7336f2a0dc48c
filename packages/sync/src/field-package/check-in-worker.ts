/**
 * `checkPackageInWorker(file)`: `checkPackageFile` in a worker thread with a heap limit and a
 * time limit (@eo/formats' `createLimitedThreads`, as `importFileInWorker` imports; the last
 * thread kept warm for the next check): a package made to hurt costs the caller's process
 * neither its memory nor its event loop. Every refusal is a `PackageError` with its reason, the
 * limits' included. The time allowed grows with the file: a legitimate package of gigabytes is
 * read whole (each picture hashed) in tens of seconds.
 */
import { createLimitedThreads, ThreadLimitError } from '@eo/formats/thread';
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

/** What the thread answers (check-thread.ts). */
export type CheckAnswer = { readonly checked: CheckedPackage } | { readonly refused: string };

/** The thread entry; the desktop's bundle rewrites this name (electron.vite.config.ts). */
const PACKAGE_CHECK_THREAD_ENTRY = './check-thread.ts';

/** The check's threads: one per check, the last kept warm for the next. */
const threads = createLimitedThreads<{ file: string }, CheckAnswer>(
  new URL(PACKAGE_CHECK_THREAD_ENTRY, import.meta.url),
  { name: 'package-check' },
);

const NOT_OURS = 'it is damaged or not ours';

export async function checkPackageInWorker(
  file: string,
  bytes: number,
  limits: Partial<PackageCheckLimits> = {},
): Promise<CheckedPackage> {
  const { heapMb, baseMs, perGbMs } = { ...PACKAGE_CHECK_LIMITS, ...limits };
  const timeMs = baseMs + Math.ceil((bytes / 1024 ** 3) * perGbMs);
  let answer: CheckAnswer;
  try {
    answer = await threads.run({ file }, { heapMb, timeMs });
  } catch (e) {
    if (!(e instanceof ThreadLimitError))
      throw new Error(`the package check failed: ${(e as Error).message}`);
    if (e.kind === 'memory')
      throw new PackageError(
        `reading the package needed more than ${heapMb} MB of memory, the limit: ${NOT_OURS}`,
      );
    if (e.kind === 'time')
      throw new PackageError(
        `reading the package took longer than ${Math.round(timeMs / 1000)} s, the limit for its size: ${NOT_OURS}`,
      );
    if (e.kind === 'load') throw new PackageError(`the package check ${e.message}`);
    throw new Error(`the package check's ${e.message}`);
  }
  if ('checked' in answer) return answer.checked;
  throw new PackageError(answer.refused);
}
