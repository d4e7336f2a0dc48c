/**
 * The render pool with real worker threads (the test entry adds jobs that misbehave on
 * purpose): work runs off the main thread, owners are served in turns, a full share or queue is
 * refused at once with 503 + Retry-After, and a job that throws, runs past its time or its
 * thread's heap fails alone. No timing is asserted: orders and counts only.
 */
import { threadId as mainThreadId } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../http/errors';
import { RenderPool, type RenderPoolLimits } from '../pool';
import type { testJobs } from './test-jobs';

const ENTRY = new URL('./test-thread.ts', import.meta.url);
const pools: RenderPool<typeof testJobs>[] = [];
const pool = (limits: Partial<RenderPoolLimits>) => {
  const p = new RenderPool<typeof testJobs>({ threads: 1, ...limits }, ENTRY);
  pools.push(p);
  return p;
};
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

/** The rejection of `p` (fails the test if it resolves). */
async function refusal(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a rejection');
}

describe('render pool', () => {
  const shared = pool({});

  it('runs each job on a worker thread and moves its bytes back', async () => {
    const where = await shared.run('org-a', 'whereAmI', null);
    expect(where).not.toBe(mainThreadId);
    expect(where).toBeGreaterThan(0);
    const bytes = await shared.run('org-a', 'bytes', { n: 1 << 20 });
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(bytes.length).toBe(1 << 20);
    expect(bytes[12345]).toBe(7);
    expect(shared.stats()).toMatchObject({ threads: 1, running: 0, queued: 0, done: 2 });
  });

  it('serves owners in turns: one job of another owner waits behind one, not behind a batch', async () => {
    const finished: string[] = [];
    const jobs = [];
    for (let i = 1; i <= 6; i++)
      jobs.push(shared.run('org-a', 'spin', { ms: 20 }).then(() => finished.push(`a${i}`)));
    jobs.push(shared.run('org-b', 'whereAmI', null).then(() => finished.push('b1')));
    expect(shared.stats().queuedByOwner).toEqual({ 'org-a': 5, 'org-b': 1 });
    await Promise.all(jobs);
    // a1 was running, a2 had its turn first (its line was older); then b1, then a's rest.
    expect(finished).toEqual(['a1', 'a2', 'b1', 'a3', 'a4', 'a5', 'a6']);
  });

  it('fails a job that throws, alone: the same thread runs the next one', async () => {
    const before = await shared.run('org-a', 'whereAmI', null);
    const err = await refusal(shared.run('org-a', 'fail', { message: 'broken input' }));
    expect(err).not.toBeInstanceOf(ApiError);
    expect(err.name).toBe('RangeError');
    expect(err.message).toMatch(/render job fail failed: broken input/);
    expect(await shared.run('org-a', 'whereAmI', null)).toBe(before);
  });

  it('refuses at once with 503 and Retry-After past an owner share or the whole queue', async () => {
    const p = pool({ maxQueued: 3, maxQueuedPerOwner: 2 });
    const held = refusal(p.run('org-a', 'spin', { ms: Infinity })); // holds the only thread
    const waiting = [p.run('org-a', 'whereAmI', null), p.run('org-a', 'whereAmI', null)];
    const share = await refusal(p.run('org-a', 'whereAmI', null));
    waiting.push(p.run('org-b', 'whereAmI', null)); // another owner still has room...
    const full = await refusal(p.run('org-c', 'whereAmI', null)); // ...until the queue is full
    for (const [err, what] of [
      [share, /This organisation already has 2 renders waiting/],
      [full, /rendering at capacity \(3 jobs waiting\)/],
    ] as const) {
      expect(err).toBeInstanceOf(ApiError);
      const e = err as ApiError;
      expect(e.status).toBe(503);
      expect(e.code).toBe('unavailable');
      expect(e.message).toMatch(what);
      expect(Number(e.headers?.['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    expect(p.stats()).toMatchObject({ running: 1, queued: 3, refused: 2 });
    // Closing fails what waits and what runs (its thread ends): 503, retry.
    const settled = Promise.all(waiting.map(refusal));
    await p.close();
    for (const e of await settled) expect((e as ApiError).status).toBe(503);
    expect(await held).toMatchObject({
      status: 503,
      message: expect.stringMatching(/shutting down/),
    });
    expect((await refusal(p.run('org-a', 'whereAmI', null))).message).toMatch(/shutting down/);
  });

  it('queues background work (wait) past a full share, not counted against it, in its turn', async () => {
    const p = pool({ maxQueued: 2, maxQueuedPerOwner: 1 });
    const held = refusal(p.run('org-a', 'spin', { ms: Infinity })); // holds the only thread
    const picture = p.run('org-a', 'whereAmI', null); // org-a's share is full
    expect((await refusal(p.run('org-a', 'whereAmI', null))).message).toMatch(/already has 1/);
    const batches = [1, 2, 3].map(() => p.run('org-a', 'whereAmI', null, { wait: true }));
    // Three background jobs wait beyond the share and the queue; the shares still count pictures.
    expect(p.stats()).toMatchObject({ queued: 4, queuedByOwner: { 'org-a': 4 }, refused: 1 });
    const other = p.run('org-b', 'whereAmI', null);
    expect(p.stats().queued).toBe(5);
    const settled = Promise.all([picture, ...batches, other].map(refusal));
    await p.close();
    for (const e of await settled) expect((e as ApiError).status).toBe(503);
    expect(await held).toMatchObject({
      status: 503,
      message: expect.stringMatching(/shutting down/),
    });
  });
  it('stops a job past its time (503) and replaces its thread', async () => {
    // The clock starts once the thread is loaded: a slow start is not the job's time.
    const p = pool({ jobTimeoutMs: 300 });
    const err = await refusal(p.run('org-a', 'spin', { ms: Infinity }));
    expect((err as ApiError).status).toBe(503);
    expect(err.message).toMatch(/took longer than 300 ms/);
    expect(await p.run('org-a', 'whereAmI', null)).toBeGreaterThan(0);
    expect(p.stats()).toMatchObject({ threads: 1, failed: 1, done: 1 });
  });

  it('fails a job past its thread heap, alone: a new thread takes the next one', async () => {
    const p = pool({ threadHeapMb: 96 });
    const first = await p.run('org-a', 'whereAmI', null);
    const err = await refusal(p.run('org-a', 'hog', null));
    expect(err.message).toMatch(/render job hog: its thread ended/);
    const next = await p.run('org-a', 'whereAmI', null);
    expect(next).not.toBe(first);
    expect(p.stats()).toMatchObject({ threads: 1, failed: 1 });
  });
});
