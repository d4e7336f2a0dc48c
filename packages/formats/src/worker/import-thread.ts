/**
 * The import thread's entry: each `{ source, options }` job answered with the preview, or the
 * FormatError's parts (`serveThread`; the thread is kept warm between imports). A CSV or a GeoJSON given
 * by path is streamed (`readCsvFile`, `readGeoJsonFile`); every other source is read whole,
 * after its size was checked.
 */
import fs from 'node:fs';
import { FormatError, reasonOf } from '../errors';
import { importFile, importPreview } from '../import';
import { IMPORT_LIMITS, type ImportLimits } from '../limits';
import { readCsvFile } from '../read/csv-stream';
import { readGeoJsonFile } from '../read/geojson-stream';
import type { ReadResult } from '../read/reader';
import { entryParts } from '../read/zip';
import type { ImportFormat } from '../types';
import type { ImportAnswer, ImportJob } from './import-in-worker';
import { serveThread } from './serve-thread';

/** Formats read from a path as a stream, by extension (the others are read whole). */
const STREAMED: Record<string, ImportFormat> = {
  csv: 'csv',
  tsv: 'csv',
  txt: 'csv',
  geojson: 'geojson',
  json: 'geojson',
};

/** The readers of a file by path as a stream (the file's text never whole in memory). */
const FILE_READERS: Partial<
  Record<ImportFormat, (file: string, limits: ImportLimits) => Promise<ReadResult>>
> = { csv: readCsvFile, geojson: readGeoJsonFile };

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
    const format = options.format ?? STREAMED[entryParts(name).ext];
    const readFile = format && FILE_READERS[format];
    if (format && readFile) {
      let read;
      try {
        read = await readFile(source.path, limits);
      } catch (e) {
        throw new FormatError(name, `cannot read it as ${format}: ${reasonOf(e)}`);
      }
      return { preview: importPreview(name, format, read, options) };
    }
    return { preview: await importFile(name, fs.readFileSync(source.path), options) };
  } catch (e) {
    if (e instanceof FormatError)
      return { refused: { file: e.file, reason: e.reason, feature: e.feature } };
    throw new Error(reasonOf(e));
  }
}

serveThread(run);
