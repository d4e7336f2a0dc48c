import { afterEach, describe, expect, it } from 'vitest';
import { checkMet, formatCheck, isSmoke, median, reportVerdict } from '../verdict';

afterEach(() => {
  process.exitCode = undefined;
});

describe('verdict', () => {
  it('meets a target only with a finite value on the right side', () => {
    expect(checkMet({ what: 'r', value: 0.85, atLeast: 0.85 })).toBe(true);
    expect(checkMet({ what: 'r', value: 0.84, atLeast: 0.85 })).toBe(false);
    expect(checkMet({ what: 't', value: 50, atMost: 50 })).toBe(true);
    expect(checkMet({ what: 't', value: 51, atMost: 50 })).toBe(false);
    expect(checkMet({ what: 't', value: NaN, atMost: 50 })).toBe(false);
    expect(checkMet({ what: 't', value: Infinity, atLeast: 1 })).toBe(false);
    expect(checkMet({ what: 'x', value: 3 })).toBe(true);
  });

  it('prints each figure with its target', () => {
    expect(formatCheck({ what: 'ratio', value: 0.54, atLeast: 0.85 })).toBe(
      '❌ ratio: 0.54 (target ≥ 0.85)',
    );
    expect(formatCheck({ what: 'p95', value: 15.2, atMost: 50, unit: 'ms', digits: 1 })).toBe(
      '✅ p95: 15.2 ms (target ≤ 50.0 ms)',
    );
    expect(formatCheck({ what: 'size', value: 3, digits: 0 })).toBe('·  size: 3 (no target)');
  });

  it('sets exit code 1 on a miss in a full run, never in a smoke run', () => {
    const lines: string[] = [];
    const write = (l: string) => void lines.push(l);
    const miss = [{ what: 'ratio', value: 0.5, atLeast: 0.85 }];
    expect(reportVerdict('b', miss, { smoke: true, write })).toBe(false);
    expect(process.exitCode).toBeUndefined();
    expect(lines.at(-1)).toMatch(/smoke run, targets not enforced/);
    expect(
      reportVerdict('b', [{ what: 'ok', value: 1, atLeast: 1 }], { smoke: false, write }),
    ).toBe(true);
    expect(process.exitCode).toBeUndefined();
    expect(lines.at(-1)).toBe('b: every target met (1)');
    expect(reportVerdict('b', miss, { smoke: false, write })).toBe(false);
    expect(process.exitCode).toBe(1);
    expect(lines.at(-1)).toBe('b: MISSED 1 of 1 targets: ratio');
  });

  it('reads --smoke and takes medians', () => {
    expect(isSmoke(['node', 'x.ts', '--smoke'])).toBe(true);
    expect(isSmoke(['node', 'x.ts'])).toBe(false);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});
