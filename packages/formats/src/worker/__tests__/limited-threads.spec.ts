/**
 * The one starter of limited threads: a job that would exhaust memory fails with the memory
 * limit named and the caller's heap untouched; a job that never returns is ended at its time and
 * the caller's event loop went on meanwhile; a thread is kept warm and reused after an answer
 * (a handler's refusal included), never after a limit, and ends when left idle.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createLimitedThreads,
  ThreadJobError,
  ThreadLimitError,
  type LimitedThreads,
} from '../limited-threads';
import type { TestJob } from './test-thread';

const ENTRY = new URL('./test-thread.ts', import.meta.url);
const LIMITS = { heapMb: 64, timeMs: 30_000 };
let threads: LimitedThreads<TestJob, number>;
afterEach(async () => threads.close());

const make = (idleMs?: number) =>
  (threads = createLimitedThreads<TestJob, number>(ENTRY, {
    name: 'test',
    ...(idleMs === undefined ? {} : { idleMs }),
  }));

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('the job answered');
}

/** Polls `done` every 20 ms for up to 10 s; says what never happened. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((r) => setTimeout(r, 20));
  if (!done()) throw new Error(`within 10 s: ${what}`);
}

describe('createLimitedThreads', () => {
  it('keeps the thread warm: a second job runs on the same thread, a refusal keeps it too', async () => {
    make();
    const first = await threads.run('who', LIMITS);
    expect(threads.stats()).toMatchObject({ started: 1, reused: 0, warm: true, alive: 1 });
    const refused = await failure(threads.run('throw', LIMITS));
    expect(refused).toBeInstanceOf(ThreadJobError);
    expect(refused.message).toBe('not a job this thread knows');
    expect(await threads.run('who', LIMITS)).toBe(first);
    expect(threads.stats()).toMatchObject({ started: 1, reused: 2, warm: true });
  });

  it('starts another thread for another heap limit, and for jobs at the same time', async () => {
    make();
    const a = await threads.run('who', LIMITS);
    const b = await threads.run('who', { ...LIMITS, heapMb: 48 });
    expect(b).not.toBe(a);
    const [c, d] = await Promise.all([
      threads.run('who', { ...LIMITS, heapMb: 48 }),
      threads.run('who', { ...LIMITS, heapMb: 48 }),
    ]);
    expect(new Set([b, c, d]).size).toBe(2); // one warm, one new
    expect(threads.stats()).toMatchObject({ started: 3, reused: 1, warm: true });
    await until(
      () => threads.stats().alive === 1,
      'the second thread back ended (one warm at most)',
    );
  });

  it('fails a job that would exhaust memory with the limit named; the caller is unharmed', async () => {
    make();
    const heapBefore = process.memoryUsage().heapUsed;
    const e = await failure(threads.run('hog', LIMITS));
    expect(e).toBeInstanceOf(ThreadLimitError);
    expect(e).toMatchObject({ kind: 'memory', limit: 64 });
    expect(e.message).toBe('needed more than 64 MB of memory');
    // The thread held 64 MB and more before it died; the caller's heap is not where it went.
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(32 * 1024 * 1024);
    expect(threads.stats()).toMatchObject({ warm: false, alive: 0 });
    // A fresh thread serves the next job.
    await threads.run('who', LIMITS);
    expect(threads.stats()).toMatchObject({ started: 2, reused: 0 });
  });

  it('ends a job that never returns at its time, while the event loop goes on', async () => {
    make();
    await threads.run('who', LIMITS); // loaded: the next job's time is all its own
    let settled = false;
    const job = failure(threads.run('spin', { ...LIMITS, timeMs: 500 })).finally(
      () => (settled = true),
    );
    // The caller's event loop turns while the thread spins.
    for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    const e = await job;
    expect(e).toMatchObject({ kind: 'time', limit: 500, message: 'took longer than 500 ms' });
    await until(() => threads.stats().alive === 0, 'the spinning thread ended');
    expect(threads.stats().warm).toBe(false);
    const next = threads.run('who', LIMITS);
    await next;
    expect(threads.stats()).toMatchObject({ started: 2, reused: 1 });
  });

  it('ends a warm thread left idle', async () => {
    make(50);
    await threads.run('who', LIMITS);
    await until(() => threads.stats().alive === 0, 'the idle thread ended');
    expect(threads.stats().warm).toBe(false);
  });
});
