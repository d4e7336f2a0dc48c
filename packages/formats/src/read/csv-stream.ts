/**
 * A CSV file read as a stream (papaparse's Node stream input, a row at a time): the file's text
 * is never whole in memory, and the feature and position limits stop the read where they are
 * passed, not after it.
 */
import fs from 'node:fs';
import Papa from 'papaparse';
import type { ImportLimits } from '../limits';
import type { RawFeature } from '../types';
import { csvColumns, makeCsvRowReader } from './csv';
import type { ReadResult } from './reader';

export function readCsvFile(file: string, limits: ImportLimits): Promise<ReadResult> {
  return new Promise((resolve, reject) => {
    const features: RawFeature[] = [];
    let read: ((row: Record<string, string>) => RawFeature) | undefined;
    const input = fs.createReadStream(file, { encoding: 'utf8' });
    let failed = false;
    const fail = (e: unknown) => {
      if (failed) return;
      failed = true;
      input.destroy();
      reject(e instanceof Error ? e : new Error(String(e)));
    };
    input.on('error', fail);
    Papa.parse<Record<string, string>>(input as unknown as File, {
      header: true,
      skipEmptyLines: 'greedy',
      transformHeader: (h, i) => (i === 0 ? h.replace(/^\uFEFF/, '') : h),
      step(result, parser) {
        if (failed) return;
        try {
          read ??= makeCsvRowReader(csvColumns(result.meta.fields ?? []), limits);
          features.push(read(result.data));
        } catch (e) {
          fail(e); // first: aborting completes the parse
          parser.abort();
        }
      },
      complete() {
        if (!failed) resolve({ features, sourceCrs: null });
      },
      error: fail,
    });
  });
}
