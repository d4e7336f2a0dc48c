/**
 * The package check's thread: each `{ file }` job answered with what the package holds, or why
 * it is refused (`serveThread`; the thread is kept warm between checks).
 */
import { serveThread } from '@eo/formats/thread';
import { checkPackageFile } from './check';
import type { CheckAnswer } from './check-in-worker';
import { PackageError } from './read';

function run({ file }: { file: string }): CheckAnswer {
  try {
    return { checked: checkPackageFile(file) };
  } catch (e) {
    if (e instanceof PackageError) return { refused: e.message };
    throw e;
  }
}

serveThread(run);
