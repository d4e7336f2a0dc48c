/**
 * `importFileInWorker(source, options)`: `importFile` in a worker thread of its own, with a
 * heap limit and a time limit, so a hostile or huge field file costs the caller's process
 * neither its memory nor its event loop (the desktop backend answers the app, the embedded
 * service runs beside it). A CSV given by path is streamed; a file given by path is refused by
 * its size before it is read. Every way it can fail on the file is a `FormatError` with a clear
 * reason, the limits' included. For the CLI (`eo import`), the desktop backend and any other
 * importer (a team's field packages): one place for the limits (`IMPORT_WORKER_LIMITS`).
 */
import type { Worker } from 'node:worker_threads';
import { FormatError } from '../errors';
import type { ImportOptions } from '../import';
import type { ImportPreview } from '../types';
import { startThread } from './start-thread';

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

/** What the thread answers (import-thread.ts). */
export type ThreadAnswer =
  | { readonly ready: true }
  | { readonly preview: ImportPreview }
  | { readonly refused: { file: string; reason: string; feature: number | undefined } }
  | { readonly failed: string };

/** Time a thread may take to load (from sources under tsx, seconds on a busy machine), ms. */
const LOAD_MS = 120_000;

/** The thread entry; the desktop's bundle rewrites this name (electron.vite.config.ts). */
const IMPORT_THREAD_ENTRY = './import-thread.ts';

export function importFileInWorker(
  source: ImportSource,
  options: ImportOptions & { readonly worker?: Partial<ImportWorkerLimits> } = {},
): Promise<ImportPreview> {
  const { worker: limits, ...importOptions } = options;
  const { heapMb, timeMs } = { ...IMPORT_WORKER_LIMITS, ...limits };
  const file = 'path' in source ? source.path : source.name;
  const thread: Worker = startThread(new URL(IMPORT_THREAD_ENTRY, import.meta.url), {
    name: 'import',
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 32 },
  });
  return new Promise<ImportPreview>((resolve, reject) => {
    let settled = false;
    const settle = (f: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void thread.terminate();
      f();
    };
    const tooLong = (ms: number, what: string) =>
      setTimeout(() => settle(() => reject(new FormatError(file, what))), ms);
    let timer = tooLong(LOAD_MS, `the import could not start within ${LOAD_MS / 1000} s`);
    thread.on('message', (answer: ThreadAnswer) => {
      if ('ready' in answer) {
        clearTimeout(timer);
        timer = tooLong(
          timeMs,
          `reading it took longer than ${timeMs / 1000} s, the import's limit: split the file, or simplify its features`,
        );
        return;
      }
      settle(() => {
        if ('preview' in answer) resolve(answer.preview);
        else if ('refused' in answer) {
          const r = answer.refused;
          reject(new FormatError(r.file, r.reason, r.feature));
        } else reject(new Error(`${file}: the import failed: ${answer.failed}`));
      });
    });
    let why: Error | undefined;
    thread.on('error', (e) => (why = e));
    thread.once('exit', () =>
      settle(() =>
        reject(
          (why as NodeJS.ErrnoException | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new FormatError(
                file,
                `reading it needed more than ${heapMb} MB of memory, the import's limit: split the file, or simplify its features`,
              )
            : new Error(`${file}: the import's thread ended (${why?.message ?? 'no answer'})`),
        ),
      ),
    );
    thread.postMessage({ source, options: importOptions });
  });
}
