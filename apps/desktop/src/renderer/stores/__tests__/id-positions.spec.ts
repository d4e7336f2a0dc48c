import { describe, expect, it } from 'vitest';
import { IdPositions } from '../id-positions';

describe('IdPositions', () => {
  it('reads no id until the first lookup, then answers from one map', () => {
    const ids = ['a', 'b', 'c', 'b'];
    let reads = 0;
    const counted = new Proxy(ids, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const positions = new IdPositions(counted);
    expect(positions.size).toBe(4);
    expect(reads).toBe(0);
    expect(positions.get('a')).toBe(0);
    expect(positions.get('b')).toBe(3); // a repeated id: its last position, as a Map built in order
    expect(positions.has('c')).toBe(true);
    expect(positions.has('z')).toBe(false);
    expect(positions.get('z')).toBeUndefined();
    expect(reads).toBe(4);
  });
});
