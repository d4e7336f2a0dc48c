/**
 * `importFileInWorker(source, options)`: `importFile` in a worker thread with a heap limit and
 * a time limit (`createLimitedThreads`: the last thread kept warm for the next import), so a hostile or huge field file costs the caller's process
 * neither its memory nor its event loop (the desktop backend answers the app, the embedded
 * service runs beside it). A CSV given by path is streamed; a file given by path is refused by
 * its size before it is read. Every way it can fail on the file is a `FormatError` with a clear
 * reason, the limits' included. For the CLI (`eo import`), the desktop backend and any other
 * importer (a team's field packages): one place for the limits (`IMPORT_WORKER_LIMITS`).
 */
import { FormatError } from '../errors';
import type { ImportOptions } from '../import';
import type { ImportPreview } from '../types';
import { createLimitedThreads, ThreadLimitError } from './limited-threads';

/** What to import: a file on disk (streamed where the format allows), or bytes already read. */
export type ImportSource =
  { readonly path: string } | { readonly name: string; readonly bytes: Uint8Array };

export interface ImportWorkerLimits {
  /** Old-generation heap of the import's thread, MB (the process stays under ~512 MB). */
  readonly heapMb: number;
  /** Time the import may take once its thread is loaded, ms. */
  readonly timeMs: number;
}

export const IMPORT_WORKER_LIMITS: ImportWorkerLimits = { heapMb: 320, timeMs: 60_000 };

/** What the thread answers (import-thread.ts): the preview, or the FormatError's parts. */
export type ImportAnswer =
  | { readonly preview: ImportPreview }
  | { readonly refused: { file: string; reason: string; feature: number | undefined } };

export interface ImportJob {
  readonly source: ImportSource;
  readonly options: ImportOptions;
}

/** The thread entry; the desktop's bundle rewrites this name (electron.vite.config.ts). */
const IMPORT_THREAD_ENTRY = './import-thread.ts';

/** The importer's threads: one at a time per import, the last kept warm for the next. */
const threads = createLimitedThreads<ImportJob, ImportAnswer>(
  new URL(IMPORT_THREAD_ENTRY, import.meta.url),
  { name: 'import' },
);

const ADVICE = 'split the file, or simplify its features';

/** A limit the import passed, in the importer's words (a FormatError: the file's fault). */
function limitPassed(file: string, e: ThreadLimitError, limits: ImportWorkerLimits): Error {
  switch (e.kind) {
    case 'memory':
      return new FormatError(
        file,
        `reading it needed more than ${limits.heapMb} MB of memory, the import's limit: ${ADVICE}`,
      );
    case 'time':
      return new FormatError(
        file,
        `reading it took longer than ${limits.timeMs / 1000} s, the import's limit: ${ADVICE}`,
      );
    case 'load':
      return new FormatError(file, `the import ${e.message}`);
    default:
      return new Error(`${file}: the import's ${e.message}`);
  }
}

export async function importFileInWorker(
  source: ImportSource,
  options: ImportOptions & { readonly worker?: Partial<ImportWorkerLimits> } = {},
): Promise<ImportPreview> {
  const { worker, ...importOptions } = options;
  const limits = { ...IMPORT_WORKER_LIMITS, ...worker };
  const file = 'path' in source ? source.path : source.name;
  let answer: ImportAnswer;
  try {
    answer = await threads.run({ source, options: importOptions }, limits);
  } catch (e) {
    if (e instanceof ThreadLimitError) throw limitPassed(file, e, limits);
    throw new Error(`${file}: the import failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  if ('preview' in answer) return answer.preview;
  const r = answer.refused;
  throw new FormatError(r.file, r.reason, r.feature);
}
