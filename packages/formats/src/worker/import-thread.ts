/**
 * The import thread's entry: each `{ source, options }` job answered with the preview, or the
 * FormatError's parts (`serveThread`; the thread is kept warm between imports). A CSV given by path is
 * streamed (`readCsvFile`); every other source is read whole, after its size was checked.
 */
import fs from 'node:fs';
import { FormatError, reasonOf } from '../errors';
import { importFile, importPreview } from '../import';
import { IMPORT_LIMITS } from '../limits';
import { readCsvFile } from '../read/csv-stream';
import type { ImportAnswer, ImportJob } from './import-in-worker';
import { serveThread } from './serve-thread';

async function run({ source, options }: ImportJob): Promise<ImportAnswer> {
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
    throw new Error(reasonOf(e));
  }
}

serveThread(run);
