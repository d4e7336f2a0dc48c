/**
 * The package check's thread: one `{ file }` message in, one answer out (what the package holds,
 * or why it is refused), then the thread is ended by its caller.
 */
import { parentPort } from 'node:worker_threads';
import { checkPackageFile } from './check';
import type { CheckAnswer } from './check-in-worker';
import { PackageError } from './read';

function run(file: string): CheckAnswer {
  try {
    return { checked: checkPackageFile(file) };
  } catch (e) {
    if (e instanceof PackageError) return { refused: e.message };
    return { failed: e instanceof Error ? e.message : String(e) };
  }
}

parentPort!.once('message', (m: { file: string }) => parentPort!.postMessage(run(m.file)));
// Loaded: the check's time counts from here (loading from sources takes seconds under tsx).
parentPort!.postMessage({ ready: true } satisfies CheckAnswer);
