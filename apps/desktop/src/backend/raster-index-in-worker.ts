/**
 * `writeIndexInWorker(job)`: an index over a stored offline raster written as a GeoTIFF
 * (raster-index-file.ts) in a worker thread of its own, with a heap limit and a time limit (the
 * rule of `importFileInWorker` of @eo/formats, applied to index exports): the compute over a
 * large window never holds the backend's event loop (the app's map, its sync and the embedded
 * service answer meanwhile), and a damaged or hostile stored file costs it neither memory nor
 * time. A refusal (bad expression, band map, unreadable or too large file) is an
 * `IndexRefusal` with the argument at fault; the limits' are said in plain words.
 */
import { startThread } from '@eo/formats/thread';
import type { Worker } from 'node:worker_threads';
import { IndexRefusal, type IndexRequest } from './raster-index-file';

export interface IndexJob {
  /** The stored raster's file (read only). */
  readonly source: string;
  /** The new file (created; it must not exist). */
  readonly target: string;
  readonly index: IndexRequest;
  /** Pixels of the full resolution an index is exported for, at most. */
  readonly maxPixels: number;
}

export interface IndexWorkerLimits {
  /** Old-generation heap of the export's thread, MB. */
  readonly heapMb: number;
  /** Time the export may take once its thread is loaded, ms. */
  readonly timeMs: number;
}

/**
 * 16,384 x 16,384 pixels: a 164 km square at 10 m, a float32 index of 1 GB before compression;
 * a take of the app is far smaller (its area and budget).
 */
export const INDEX_EXPORT_MAX_PIXELS = 1 << 28;
export const INDEX_WORKER_LIMITS: IndexWorkerLimits = { heapMb: 512, timeMs: 10 * 60_000 };

export type IndexAnswer =
  | { readonly ready: true }
  | { readonly written: number }
  | { readonly refused: { readonly message: string; readonly path: string } }
  | { readonly failed: string };

/** Time a thread may take to load (from sources under tsx, seconds on a busy machine), ms. */
const LOAD_MS = 120_000;

/** The thread entry; the desktop's bundle rewrites this name (electron.vite.config.ts). */
const RASTER_INDEX_THREAD_ENTRY = './raster-index-thread.ts';

export function writeIndexInWorker(
  job: IndexJob,
  limits: Partial<IndexWorkerLimits> = {},
): Promise<number> {
  const { heapMb, timeMs } = { ...INDEX_WORKER_LIMITS, ...limits };
  const thread: Worker = startThread(new URL(RASTER_INDEX_THREAD_ENTRY, import.meta.url), {
    name: 'raster-index',
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 32 },
  });
  return new Promise<number>((resolve, reject) => {
    let settled = false;
    const settle = (f: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void thread.terminate();
      f();
    };
    const tooLong = (ms: number, what: string) =>
      setTimeout(() => settle(() => reject(new Error(what))), ms);
    let timer = tooLong(LOAD_MS, `the index export could not start within ${LOAD_MS / 1000} s`);
    thread.on('message', (answer: IndexAnswer) => {
      if ('ready' in answer) {
        clearTimeout(timer);
        timer = tooLong(
          timeMs,
          `the index export took longer than ${Math.round(timeMs / 1000)} s, its limit: take a smaller area offline`,
        );
        return;
      }
      settle(() => {
        if ('written' in answer) resolve(answer.written);
        else if ('refused' in answer)
          reject(new IndexRefusal(answer.refused.message, answer.refused.path));
        else reject(new Error(`the index export failed: ${answer.failed}`));
      });
    });
    let why: Error | undefined;
    thread.on('error', (e) => (why = e));
    thread.once('exit', () =>
      settle(() =>
        reject(
          (why as NodeJS.ErrnoException | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new IndexRefusal(
                `the index export needed more than ${heapMb} MB of memory, its limit: take a smaller area offline`,
                'id',
              )
            : new Error(`the index export's thread ended (${why?.message ?? 'no answer'})`),
        ),
      ),
    );
    thread.postMessage(job);
  });
}
