/**
 * The import thread's entry: one `{ source, options }` message in, one answer out (the preview,
 * or the FormatError's parts), then the thread is ended by its caller. A CSV given by path is
 * streamed (`readCsvFile`); every other source is read whole, after its size was checked.
 */
import fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { FormatError, reasonOf } from '../errors';
import { importFile, importPreview, type ImportOptions } from '../import';
import { IMPORT_LIMITS } from '../limits';
import { readCsvFile } from '../read/csv-stream';
import type { ImportSource, ThreadAnswer } from './import-in-worker';

async function run(source: ImportSource, options: ImportOptions): Promise<ThreadAnswer> {
  const name = 'path' in source ? source.path : source.name;
  try {
    if (!('path' in source)) return { preview: await importFile(name, source.bytes, options) };
    const limits = { ...IMPORT_LIMITS, ...options.limits };
    let size: number;
    try {
      size = fs.statSync(source.path).size;
    } catch (e) {
      throw new FormatError(name, `cannot read the file: ${reasonOf(e)}`);
    }
    if (size > limits.maxFileBytes)
      throw new FormatError(
        name,
        `${size} bytes: files up to ${limits.maxFileBytes} bytes are read`,
      );
    const csv = options.format === 'csv' || (!options.format && /\.(csv|tsv|txt)$/i.test(name));
    if (csv) {
      let read;
      try {
        read = await readCsvFile(source.path, limits);
      } catch (e) {
        throw new FormatError(name, `cannot read it as csv: ${reasonOf(e)}`);
      }
      return { preview: importPreview(name, 'csv', read, options) };
    }
    return { preview: await importFile(name, fs.readFileSync(source.path), options) };
  } catch (e) {
    if (e instanceof FormatError)
      return { refused: { file: e.file, reason: e.reason, feature: e.feature } };
    return { failed: reasonOf(e) };
  }
}

parentPort!.once('message', (m: { source: ImportSource; options: ImportOptions }) => {
  void run(m.source, m.options).then((answer) => parentPort!.postMessage(answer));
});
// Loaded: the import's time counts from here (loading from sources takes seconds under tsx).
parentPort!.postMessage({ ready: true } satisfies ThreadAnswer);
