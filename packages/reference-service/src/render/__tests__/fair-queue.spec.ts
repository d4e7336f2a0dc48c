import { describe, expect, it } from 'vitest';
import { FairQueue } from '../fair-queue';

describe('FairQueue', () => {
  it('serves owners in turns, each in its own arrival order', () => {
    const q = new FairQueue<string>();
    for (const x of ['a1', 'a2', 'a3', 'a4']) q.push('a', x);
    q.push('b', 'b1');
    q.push('c', 'c1');
    q.push('b', 'b2');
    expect(q.size).toBe(7);
    expect(q.sizes()).toEqual({ a: 4, b: 2, c: 1 });
    const out: string[] = [];
    for (let x = q.take(); x !== undefined; x = q.take()) out.push(x);
    expect(out).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4']);
    expect(q.size).toBe(0);
    expect(q.sizeOf('a')).toBe(0);
  });

  it('puts an owner that comes back at the end of the turn', () => {
    const q = new FairQueue<string>();
    q.push('a', 'a1');
    q.push('b', 'b1');
    expect(q.take()).toBe('a1');
    q.push('a', 'a2');
    q.push('c', 'c1');
    expect([q.take(), q.take(), q.take()]).toEqual(['b1', 'a2', 'c1']);
  });

  it('drains everything', () => {
    const q = new FairQueue<number>();
    q.push('a', 1);
    q.push('b', 2);
    expect(q.drain().sort()).toEqual([1, 2]);
    expect(q.size).toBe(0);
    expect(q.take()).toBeUndefined();
  });
});
