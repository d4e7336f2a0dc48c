import { describe, expect, it } from 'vitest';
import { compareCodePoints, compareSearchValues, readPath, searchValue } from '../values';
import { record } from './records';

describe('readPath', () => {
  const rec = record({
    id: 'r1',
    itemId: 'item',
    collection: 'col',
    properties: { 'eo:cloud_cover': 12, 'properties.odd': 'x' },
    fields: { area: 3, task_id: 't' },
  }).record;

  it('follows the path rules of paths.ts', () => {
    expect(readPath(rec, 'id')).toBe('r1');
    expect(readPath(rec, 'item_id')).toBe('item');
    expect(readPath(rec, 'collection')).toBe('col');
    expect(readPath(rec, 'area')).toBe(3);
    expect(readPath(rec, 'task_id')).toBe('t');
    expect(readPath(rec, 'eo:cloud_cover')).toBe(12);
    expect(readPath(rec, 'properties.eo:cloud_cover')).toBe(12);
    expect(readPath(rec, 'properties.properties.odd')).toBe('x');
    expect(readPath(rec, 'missing')).toBeUndefined();
    expect(readPath(rec, 'hasOwnProperty')).toBeUndefined();
    expect(readPath(rec, '__proto__')).toBeUndefined();
  });
});

describe('searchValue', () => {
  it('types values for comparison', () => {
    expect(searchValue(3, false)).toBe(3);
    expect(searchValue('3', false)).toBe('3');
    expect(searchValue(false, false)).toBe(false);
    expect(searchValue(null, false)).toBeUndefined();
    expect(searchValue([1], false)).toBeUndefined();
    expect(searchValue(NaN, false)).toBeUndefined();
    expect(searchValue('1970-01-01T00:00:01Z', true)).toBe(1_000_000);
    expect(searchValue('1970-01-01', true)).toBeUndefined();
    expect(searchValue(1, true)).toBeUndefined();
  });
});

describe('compareCodePoints', () => {
  it('is UTF-8 byte order', () => {
    const strings = [
      '',
      'a',
      'ab',
      'b',
      'B',
      '\u00e9',
      '\uffff',
      '\u{10000}',
      '\u{1F600}',
      '\ue000',
      'a\u{1F600}',
      'a\uffff',
    ];
    // UTF-8 by hand (domain has no DOM or Node types, so no TextEncoder).
    const utf8 = (s: string): number[] =>
      Array.from(s).flatMap((ch) => {
        const c = ch.codePointAt(0)!;
        if (c < 0x80) return [c];
        if (c < 0x800) return [0xc0 | (c >> 6), 0x80 | (c & 63)];
        if (c < 0x10000) return [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63)];
        return [0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63)];
      });
    const byBytes = (x: string, y: string) => {
      const a = utf8(x);
      const b = utf8(y);
      for (let i = 0; i < Math.min(a.length, b.length); i++)
        if (a[i] !== b[i]) return a[i]! - b[i]!;
      return a.length - b.length;
    };
    for (const x of strings) {
      for (const y of strings)
        expect(Math.sign(compareCodePoints(x, y))).toBe(Math.sign(byBytes(x, y)));
    }
  });
});

describe('compareSearchValues', () => {
  it('orders numbers < strings < false < true', () => {
    const sorted = [true, 'b', 2, false, 'a', -1].sort(compareSearchValues);
    expect(sorted).toEqual([-1, 2, 'a', 'b', false, true]);
  });
});
