import { describe, expect, it } from 'vitest';
import { ContractError } from '../../../shared/contract';
import type { ReadableError } from '../errors';
import { latestRead, type ReadStatus } from '../list-reads';

/** A promise settled from outside, so the test decides which answer arrives first. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('latestRead', () => {
  it('applies only the latest answer, whatever order the answers arrive in', async () => {
    const read = latestRead();
    const seen: Array<[ReadStatus, ReadableError | null]> = [];
    const applied: string[] = [];
    const report = (s: ReadStatus, e: ReadableError | null) => seen.push([s, e]);
    const first = deferred<string>();
    const second = deferred<string>();
    const a = read(
      report,
      () => first.promise,
      (v) => applied.push(v),
    );
    const b = read(
      report,
      () => second.promise,
      (v) => applied.push(v),
    );
    second.resolve('new');
    first.resolve('old');
    expect(await b).toBe(true);
    expect(await a).toBe(false);
    expect(applied).toEqual(['new']);
    expect(seen.map(([s]) => s)).toEqual(['loading', 'loading', 'ready']);
  });

  it('says a failure in words, unless a newer read started', async () => {
    const read = latestRead();
    let last: [ReadStatus, ReadableError | null] = ['idle', null];
    const report = (s: ReadStatus, e: ReadableError | null) => (last = [s, e]);
    const ok = await read(
      report,
      () => Promise.reject(new ContractError('offline', 'down')),
      () => undefined,
    );
    expect(ok).toBe(false);
    expect(last[0]).toBe('error');
    expect(last[1]?.code).toBe('offline');

    const stale = deferred<string>();
    const a = read(
      report,
      () => stale.promise,
      () => undefined,
    );
    const b = read(
      report,
      () => Promise.resolve('x'),
      () => undefined,
    );
    await b;
    stale.reject(new ContractError('offline', 'down'));
    await a;
    expect(last[0]).toBe('ready');
  });
});
