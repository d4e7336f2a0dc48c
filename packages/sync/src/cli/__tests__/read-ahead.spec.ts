/** `eo sync --read-ahead auto|off|N` and the old `--prefetch` switch. */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../args';
import { parseReadAhead } from '../sync';
import { eo } from './run-eo';

describe('--read-ahead', () => {
  it('auto (or nothing) leaves the engine its default; off and N fix it', () => {
    expect(parseReadAhead(undefined, undefined)).toBeUndefined();
    expect(parseReadAhead('auto', undefined)).toBeUndefined();
    expect(parseReadAhead('off', undefined)).toBe(false);
    expect(parseReadAhead('0', undefined)).toBe(0);
    expect(parseReadAhead('3', undefined)).toBe(3);
    // The old switch still works: it asks for what is now the default.
    expect(parseReadAhead(undefined, true)).toBe(true);
  });

  it('a bad value or both flags at once are usage errors (exit 2) before anything is touched', async () => {
    expect(() => parseReadAhead('-1', undefined)).toThrow(UsageError);
    expect(() => parseReadAhead('3', true)).toThrow(/give one of them/);
    const bad = await eo(['sync', '--read-ahead', 'lots']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--read-ahead: "lots" is not a number');
    expect(bad.stderr).toContain('[--read-ahead auto|off|N]');
  });
});
