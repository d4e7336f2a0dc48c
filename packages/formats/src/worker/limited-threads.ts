/**
 * `createLimitedThreads(entry, options)`: runs jobs on worker threads with a heap limit and a
 * time limit each, so input an attacker controls (a field file, a field package) costs the
 * caller's process neither its memory nor its event loop, and keeps the last thread warm for the
 * next job (loading an entry from sources under tsx takes seconds; a warm thread answers at
 * once). The one starter of every such thread: `importFileInWorker` here, `checkPackageInWorker`
 * of @eo/sync. The thread side is `serveThread(handle)` in the entry module.
 *
 * A job that passes its heap limit (the thread dies out of memory), its time (the thread is
 * ended), the load bound, or whose thread ends otherwise, rejects with a `ThreadLimitError`
 * naming which; the caller says it in its own words. A thread is reused only after a job it
 * answered (the handler's own refusals included); after any limit it is ended, never reused.
 * An idle thread never keeps the process alive (unref) and ends after `idleMs`.
 */
import type { Worker } from 'node:worker_threads';
import { startThread } from './start-thread';

export interface ThreadLimits {
  /** Old-generation heap of the job's thread, MB. */
  readonly heapMb: number;
  /** Time the job may take once its thread is loaded, ms. */
  readonly timeMs: number;
}

export type ThreadLimitKind = 'memory' | 'time' | 'load' | 'ended';

/**
 * Why a job got no answer: which bound it passed (`limit`: the MB, ms or nothing). The message
 * is a phrase for the caller to put after its own subject ("the import " + "took longer…").
 */
export class ThreadLimitError extends Error {
  constructor(
    readonly kind: ThreadLimitKind,
    readonly limit: number,
    message: string,
  ) {
    super(message);
    this.name = 'ThreadLimitError';
  }
}

/** A job the handler threw on (not one of the limits): its message, as the thread said it. */
export class ThreadJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ThreadJobError';
  }
}

/** Between the two sides (`serveThread` answers). */
export type ThreadRequest<In> = { readonly id: number; readonly input: In };
export type ThreadReply<Out> =
  | { readonly ready: true }
  | { readonly id: number; readonly answer: Out }
  | { readonly id: number; readonly failed: string };

export interface LimitedThreadsOptions {
  /** The threads' name (seen in a profiler, a crash report). */
  readonly name: string;
  /** Time a thread may take to load, ms (from sources under tsx: seconds on a busy machine). */
  readonly loadMs?: number;
  /** An idle warm thread ends after this long, ms. */
  readonly idleMs?: number;
}

export interface LimitedThreadsStats {
  /** Threads started since creation. */
  readonly started: number;
  /** Jobs given to a warm thread (no start). */
  readonly reused: number;
  /** Threads alive now, busy or warm. */
  readonly alive: number;
  /** A warm thread waits for the next job. */
  readonly warm: boolean;
}

export interface LimitedThreads<In, Out> {
  run(input: In, limits: ThreadLimits): Promise<Out>;
  stats(): LimitedThreadsStats;
  /** Ends every thread (a running job rejects as `ended`). */
  close(): Promise<void>;
}

const LOAD_MS = 120_000;
const IDLE_MS = 30_000;

interface Thread {
  readonly worker: Worker;
  readonly heapMb: number;
  ready: boolean;
  /** Set while a job runs on it: told when the thread is ready, or when it exits. */
  onReady?: () => void;
  onExit?: (why: Error | undefined) => void;
  onReply?: (reply: ThreadReply<unknown>) => void;
}

export function createLimitedThreads<In, Out>(
  entry: URL,
  options: LimitedThreadsOptions,
): LimitedThreads<In, Out> {
  const loadMs = options.loadMs ?? LOAD_MS;
  const idleMs = options.idleMs ?? IDLE_MS;
  const alive = new Set<Thread>();
  let warm: { thread: Thread; timer: NodeJS.Timeout } | undefined;
  let nextId = 1;
  const counts = { started: 0, reused: 0 };

  function start(heapMb: number): Thread {
    const worker = startThread(entry, {
      name: options.name,
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 32 },
    });
    const thread: Thread = { worker, heapMb, ready: false };
    counts.started++;
    alive.add(thread);
    let why: Error | undefined;
    worker.on('error', (e) => (why = e));
    worker.on('message', (m: ThreadReply<unknown>) => {
      if ('ready' in m) {
        thread.ready = true;
        thread.onReady?.();
      } else thread.onReply?.(m);
    });
    worker.once('exit', () => {
      alive.delete(thread);
      if (warm?.thread === thread) {
        clearTimeout(warm.timer);
        warm = undefined;
      }
      thread.onExit?.(why);
    });
    return thread;
  }

  /** The warm thread if it has the heap asked for (else it is ended), or a new one. */
  function take(heapMb: number): Thread {
    const w = warm;
    warm = undefined;
    if (w) {
      clearTimeout(w.timer);
      if (w.thread.heapMb === heapMb) {
        counts.reused++;
        w.thread.worker.ref();
        return w.thread;
      }
      void w.thread.worker.terminate();
    }
    return start(heapMb);
  }

  /** Keeps `thread` warm for the next job (one warm thread at most: a second one ends). */
  function release(thread: Thread): void {
    thread.onReady = thread.onExit = thread.onReply = undefined;
    if (warm) {
      void thread.worker.terminate();
      return;
    }
    thread.worker.unref();
    const timer = setTimeout(() => {
      if (warm?.thread === thread) warm = undefined;
      void thread.worker.terminate();
    }, idleMs);
    timer.unref();
    warm = { thread, timer };
  }

  function run(input: In, limits: ThreadLimits): Promise<Out> {
    const { heapMb, timeMs } = limits;
    const thread = take(heapMb);
    const id = nextId++;
    return new Promise<Out>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const fail = (e: Error) => {
        clearTimeout(timer);
        thread.onReady = thread.onExit = thread.onReply = undefined;
        void thread.worker.terminate();
        reject(e);
      };
      const clock = () => {
        timer = setTimeout(
          () => fail(new ThreadLimitError('time', timeMs, `took longer than ${timeMs} ms`)),
          timeMs,
        );
      };
      thread.onReply = (reply) => {
        if (!('id' in reply) || reply.id !== id) return;
        clearTimeout(timer);
        release(thread);
        if ('answer' in reply) resolve(reply.answer as Out);
        else reject(new ThreadJobError(reply.failed));
      };
      thread.onExit = (why) => {
        clearTimeout(timer);
        thread.onReady = thread.onExit = thread.onReply = undefined;
        reject(
          (why as NodeJS.ErrnoException | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new ThreadLimitError('memory', heapMb, `needed more than ${heapMb} MB of memory`)
            : new ThreadLimitError('ended', 0, `thread ended (${why?.message ?? 'no answer'})`),
        );
      };
      if (thread.ready) clock();
      else {
        timer = setTimeout(
          () =>
            fail(new ThreadLimitError('load', loadMs, `could not start within ${loadMs / 1000} s`)),
          loadMs,
        );
        thread.onReady = () => {
          clearTimeout(timer);
          clock();
        };
      }
      thread.worker.postMessage({ id, input } satisfies ThreadRequest<In>);
    });
  }

  return {
    run,
    stats: () => ({ ...counts, alive: alive.size, warm: warm !== undefined }),
    async close() {
      if (warm) clearTimeout(warm.timer);
      warm = undefined;
      await Promise.all([...alive].map((t) => t.worker.terminate()));
    },
  };
}
