/**
 * The render pool: heavy steps (first renders of quicklooks, index PNGs, rasters) run on worker
 * threads, never on the event loop that answers every organisation's requests. Jobs wait in a
 * bounded queue with a share per owner (an organisation), served in turns (`fair-queue.ts`);
 * a job that finds no room is refused at once with 503 and `Retry-After` (an `ApiError`), so
 * one organisation asking for hundreds of new pictures neither stalls nor crowds out the rest.
 * A job that runs past its time, or a thread that dies (its heap limit, a crash), fails that
 * job alone: the thread is replaced. See README.md beside this file.
 */
import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { ApiError } from '../http/errors';
import { FairQueue } from './fair-queue';
import type { JobTable, RenderJobs } from './jobs';
import { startThread } from './start-thread';
import type { JobAnswer, JobMessage } from './thread';

export interface RenderPoolLimits {
  /** Worker threads (started on demand, kept while the service runs). */
  readonly threads: number;
  /** Jobs waiting for a thread, every owner together; past it, 503. */
  readonly maxQueued: number;
  /** Jobs one owner may have waiting (its share of the queue); past it, 503 for that owner. */
  readonly maxQueuedPerOwner: number;
  /** A job still running this long (ms, from when its thread is ready) fails (503); its thread is replaced. */
  readonly jobTimeoutMs: number;
  /** Old-generation heap of each thread (MB): a job needing more fails, its thread is replaced. */
  readonly threadHeapMb: number;
}

/** One thread fewer than the machine's cores (the event loop keeps one), 1 to 4. */
export function defaultRenderLimits(): RenderPoolLimits {
  return {
    threads: Math.min(4, Math.max(1, os.availableParallelism() - 1)),
    maxQueued: 64,
    maxQueuedPerOwner: 16,
    jobTimeoutMs: 60_000,
    threadHeapMb: 512,
  };
}

export interface RenderPoolStats {
  /** Threads started and alive. */
  readonly threads: number;
  /** Jobs running on a thread now. */
  readonly running: number;
  /** Jobs waiting, in all and per owner. */
  readonly queued: number;
  readonly queuedByOwner: Readonly<Record<string, number>>;
  /** Since the start: jobs answered by a thread, failed (error, timeout, dead thread), refused (no room). */
  readonly done: number;
  readonly failed: number;
  readonly refused: number;
}

/** The thread entry of the service's own jobs; the desktop's bundle rewrites this name. */
const THREAD_ENTRY = './thread-entry.ts';

type Input<J extends JobTable, K extends keyof J> = Parameters<J[K]>[0];
type Output<J extends JobTable, K extends keyof J> = Awaited<ReturnType<J[K]>>;

interface Job {
  readonly id: number;
  readonly owner: string;
  readonly kind: string;
  readonly input: unknown;
  resolve(value: unknown): void;
  reject(err: Error): void;
  /** Queued with `wait`: not counted against the shares. */
  readonly background: boolean;
}

interface Thread {
  readonly worker: Worker;
  job: Job | null;
  /** Loaded and serving (a source entry takes seconds to compile: not counted as job time). */
  ready: boolean;
  /** When its job started to count (performance.now()). */
  since: number;
  timer: NodeJS.Timeout | undefined;
}

/** How a job is queued (`run`'s last argument). */
export interface RunOptions {
  /**
   * Wait in the owner's line whatever its share holds, never refused for room: for background
   * work whose caller bounds what it has out (a scene COG's render keeps a few batches in flight),
   * which a burst of the same organisation's pictures must not turn away (README.md).
   */
  readonly wait?: boolean;
}

/** Milliseconds a job is assumed to take before any was timed (a thumbnail is ~100 ms). */
const FIRST_ESTIMATE_MS = 250;

export class RenderPool<J extends JobTable = RenderJobs> {
  readonly limits: RenderPoolLimits;
  private readonly queue = new FairQueue<Job>();
  private readonly threads = new Set<Thread>();
  private nextId = 1;
  private closed = false;
  private avgJobMs = FIRST_ESTIMATE_MS;
  private counts = { done: 0, failed: 0, refused: 0 };
  /** Background jobs (`wait`) waiting, per owner: the shares count the rest. */
  private readonly background = new Map<string, number>();

  constructor(
    limits: Partial<RenderPoolLimits> = {},
    private readonly entry: URL = new URL(THREAD_ENTRY, import.meta.url),
  ) {
    this.limits = { ...defaultRenderLimits(), ...limits };
  }

  /**
   * Runs `kind` on `input` on a thread, queued under `owner`'s share. Rejects with a 503
   * `ApiError` (with `Retry-After`) when there is no room (unless `options.wait`), on timeout
   * and while closing; with an `Error` when the job throws or its thread dies.
   */
  run<K extends keyof J & string>(
    owner: string,
    kind: K,
    input: Input<J, K>,
    options: RunOptions = {},
  ): Promise<Output<J, K>> {
    if (this.closed) return Promise.reject(this.shuttingDown());
    const { maxQueued, maxQueuedPerOwner } = this.limits;
    const idle = this.idleThread() !== undefined || this.threads.size < this.limits.threads;
    if (!options.wait && (!idle || this.queue.size > 0)) {
      let background = 0;
      for (const n of this.background.values()) background += n;
      const full = this.queue.size - background >= maxQueued;
      const owned = this.queue.sizeOf(owner) - (this.background.get(owner) ?? 0);
      if (full || owned >= maxQueuedPerOwner) {
        this.counts.refused++;
        return Promise.reject(
          ApiError.busy(
            full
              ? `The service is rendering at capacity (${maxQueued} jobs waiting); retry shortly`
              : `This organisation already has ${maxQueuedPerOwner} renders waiting; retry shortly`,
            this.retryAfterS(),
          ),
        );
      }
    }
    return new Promise<Output<J, K>>((resolve, reject) => {
      const id = this.nextId++;
      this.queue.push(owner, {
        id,
        owner,
        kind,
        input,
        resolve: resolve as Job['resolve'],
        reject,
        background: options.wait === true,
      });
      if (options.wait) this.background.set(owner, (this.background.get(owner) ?? 0) + 1);
      this.dispatch();
    });
  }

  stats(): RenderPoolStats {
    return {
      threads: this.threads.size,
      running: [...this.threads].filter((t) => t.job).length,
      queued: this.queue.size,
      queuedByOwner: this.queue.sizes(),
      ...this.counts,
    };
  }

  /** Refuses new jobs, fails the waiting ones (503) and ends every thread (their jobs fail). */
  async close(): Promise<void> {
    this.closed = true;
    this.background.clear();
    for (const job of this.queue.drain()) job.reject(this.shuttingDown());
    await Promise.all([...this.threads].map((t) => t.worker.terminate()));
  }

  private shuttingDown(): ApiError {
    return ApiError.busy('The service is shutting down; retry shortly', 1);
  }

  /** Seconds until the work ahead of a new job is likely done (1 to 60). */
  private retryAfterS(): number {
    const ahead = this.queue.size + this.threads.size;
    return Math.min(60, Math.max(1, (ahead * this.avgJobMs) / this.limits.threads / 1000));
  }

  private idleThread(): Thread | undefined {
    for (const t of this.threads) if (!t.job) return t;
    return undefined;
  }

  /** Gives waiting jobs to idle threads (starting threads up to the limit), in turns. */
  private dispatch(): void {
    while (this.queue.size > 0 && !this.closed) {
      const thread =
        this.idleThread() ?? (this.threads.size < this.limits.threads ? this.start() : undefined);
      if (!thread) return;
      const job = this.queue.take()!;
      if (job.background) {
        const left = this.background.get(job.owner)! - 1;
        if (left > 0) this.background.set(job.owner, left);
        else this.background.delete(job.owner);
      }
      this.assign(thread, job);
    }
  }

  private assign(thread: Thread, job: Job): void {
    thread.job = job;
    thread.worker.ref();
    const message: JobMessage = { id: job.id, kind: job.kind, input: job.input };
    thread.worker.postMessage(message);
    if (thread.ready) this.startClock(thread, job);
  }

  /** Counts `job`'s time from now: past the limit, it fails and its thread is replaced. */
  private startClock(thread: Thread, job: Job): void {
    thread.since = performance.now();
    thread.timer = setTimeout(() => {
      this.counts.failed++;
      this.threads.delete(thread);
      this.finish(thread, () =>
        job.reject(
          ApiError.busy(
            `The render took longer than ${this.limits.jobTimeoutMs} ms and was stopped; retry shortly`,
            this.retryAfterS(),
          ),
        ),
      );
      void thread.worker.terminate();
      this.dispatch();
    }, this.limits.jobTimeoutMs);
    thread.timer.unref();
  }

  /** Ends `thread`'s job with `settle` and makes the thread idle. */
  private finish(thread: Thread, settle: () => void): void {
    clearTimeout(thread.timer);
    thread.timer = undefined;
    thread.job = null;
    thread.worker.unref();
    settle();
  }

  private start(): Thread {
    const worker = startThread(this.entry, {
      name: 'render',
      resourceLimits: { maxOldGenerationSizeMb: this.limits.threadHeapMb },
    });
    const thread: Thread = { worker, job: null, ready: false, since: 0, timer: undefined };
    worker.unref();
    worker.on('message', (answer: JobAnswer) => {
      if ('ready' in answer) {
        thread.ready = true;
        if (thread.job) this.startClock(thread, thread.job);
        return;
      }
      const job = thread.job;
      if (!job || job.id !== answer.id) return;
      this.avgJobMs = 0.8 * this.avgJobMs + 0.2 * (performance.now() - thread.since);
      if ('error' in answer) {
        this.counts.failed++;
        const err = new Error(`render job ${job.kind} failed: ${answer.error.message}`);
        err.name = answer.error.name;
        this.finish(thread, () => job.reject(err));
      } else {
        this.counts.done++;
        this.finish(thread, () => job.resolve(answer.value));
      }
      this.dispatch();
    });
    // A dead thread (its heap limit, an error outside a job, terminate) fails its job alone.
    let why: Error | undefined;
    worker.on('error', (e) => (why = e));
    worker.on('exit', (code) => {
      const job = thread.job;
      this.threads.delete(thread);
      if (job) {
        this.counts.failed++;
        // Ended by close(): the job is refused as the waiting ones are (503, retry).
        this.finish(thread, () =>
          job.reject(
            this.closed
              ? this.shuttingDown()
              : new Error(
                  `render job ${job.kind}: its thread ended (${why?.message ?? `exit code ${code}`})`,
                ),
          ),
        );
      }
      this.dispatch();
    });
    this.threads.add(thread);
    return thread;
  }
}
