/**
 * The index export's thread: one `{ source, target, index, maxPixels }` message in (the stored
 * file and the new file's paths), one answer out (the bytes written, or why it was refused),
 * then the thread is ended by its caller.
 */
import fsp from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { IndexRefusal, writeIndexFile } from './raster-index-file';
import type { IndexJob, IndexAnswer } from './raster-index-in-worker';

async function run(job: IndexJob): Promise<IndexAnswer> {
  try {
    const source = await fsp.open(job.source, 'r');
    try {
      const target = await fsp.open(job.target, 'wx', 0o600);
      try {
        return { written: await writeIndexFile(source, target, job.index, job.maxPixels) };
      } finally {
        await target.close();
      }
    } finally {
      await source.close();
    }
  } catch (e) {
    if (e instanceof IndexRefusal) return { refused: { message: e.message, path: e.path } };
    return { failed: e instanceof Error ? e.message : String(e) };
  }
}

parentPort!.once('message', (job: IndexJob) => {
  void run(job).then((answer) => parentPort!.postMessage(answer));
});
// Loaded: the export's time counts from here (loading from sources takes seconds under tsx).
parentPort!.postMessage({ ready: true } satisfies IndexAnswer);
