import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  civilFromDays,
  daysFromCivil,
  daysInMonth,
  instantFromCalendarDate,
  instantFromDate,
  instantFromParts,
  instantToDate,
  invalidDateReason,
  invalidTimeReason,
  isLeapYear,
  partsFromInstant,
} from '../../index';

const DAY = 86_400_000_000;

describe('daysFromCivil / civilFromDays', () => {
  it('known anchors', () => {
    expect(daysFromCivil(1970, 1, 1)).toBe(0);
    expect(daysFromCivil(1969, 12, 31)).toBe(-1);
    expect(daysFromCivil(2000, 3, 1)).toBe(11017);
    expect(daysFromCivil(2024, 2, 29)).toBe(19782);
    expect(daysFromCivil(1, 1, 1)).toBe(-719162);
    expect(daysFromCivil(9999, 12, 31)).toBe(2932896);
    expect(civilFromDays(0)).toEqual({ year: 1970, month: 1, day: 1 });
    expect(civilFromDays(-719162)).toEqual({ year: 1, month: 1, day: 1 });
  });

  it('are inverse over a wide range of days (about +-27,000 years)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -10_000_000, max: 10_000_000 }), (days) => {
        const d = civilFromDays(days);
        expect(d.month).toBeGreaterThanOrEqual(1);
        expect(d.month).toBeLessThanOrEqual(12);
        expect(d.day).toBeGreaterThanOrEqual(1);
        expect(d.day).toBeLessThanOrEqual(daysInMonth(d.year, d.month));
        expect(daysFromCivil(d.year, d.month, d.day)).toBe(days);
      }),
    );
  });

  it('consecutive days are consecutive dates', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000, max: 3_000_000 }), (days) => {
        const a = civilFromDays(days);
        const b = civilFromDays(days + 1);
        if (a.day < daysInMonth(a.year, a.month)) expect(b).toEqual({ ...a, day: a.day + 1 });
        else if (a.month < 12) expect(b).toEqual({ year: a.year, month: a.month + 1, day: 1 });
        else expect(b).toEqual({ year: a.year + 1, month: 1, day: 1 });
      }),
    );
  });

  it('agree with Date.UTC for years 100..9999 (Date maps 0..99 to 19xx)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 9999 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        (y, m, d) => {
          const day = Math.min(d, daysInMonth(y, m));
          expect(daysFromCivil(y, m, day)).toBe(Date.UTC(y, m - 1, day) / 86_400_000);
        },
      ),
    );
  });
});

describe('leap years and validity', () => {
  it('isLeapYear follows the Gregorian rule', () => {
    expect([2024, 2000, 1600, 4].map(isLeapYear)).toEqual([true, true, true, true]);
    expect([2023, 1900, 2100, 1].map(isLeapYear)).toEqual([false, false, false, false]);
  });

  it('daysInMonth', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((m) => daysInMonth(2023, m))).toEqual([
      31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
    ]);
    expect(daysInMonth(2024, 2)).toBe(29);
  });

  it('invalidDateReason / invalidTimeReason', () => {
    expect(invalidDateReason(2024, 2, 29)).toBeUndefined();
    expect(invalidDateReason(2023, 2, 29)).toMatch(/day 29/);
    expect(invalidDateReason(10000, 1, 1)).toMatch(/year 10000/);
    expect(invalidDateReason(2024, 0, 1)).toMatch(/month 0/);
    expect(invalidTimeReason(23, 59, 59)).toBeUndefined();
    expect(invalidTimeReason(24, 0, 0)).toMatch(/hour 24/);
    expect(invalidTimeReason(0, 0, 60)).toMatch(/leap seconds/);
  });
});

describe('instants', () => {
  it('partsFromInstant inverts instantFromParts (safe range, to the microsecond)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
        (v) => {
          expect(instantFromParts(partsFromInstant(v))).toBe(v);
        },
      ),
    );
  });

  it('whole seconds over years 0001..9999 decompose exactly, beyond 2^53', () => {
    const min =
      instantFromParts({ year: 1, month: 1, day: 1, hour: 0, minute: 0, second: 0, micro: 0 }) /
      1e6;
    const max =
      instantFromParts({
        year: 9999,
        month: 12,
        day: 31,
        hour: 23,
        minute: 59,
        second: 59,
        micro: 0,
      }) / 1e6;
    fc.assert(
      fc.property(fc.integer({ min, max }), (seconds) => {
        const v = seconds * 1_000_000;
        const p = partsFromInstant(v);
        expect(p.micro).toBe(0);
        expect(p.hour).toBeLessThanOrEqual(23);
        expect(instantFromParts(p)).toBe(v);
      }),
    );
    const last = partsFromInstant(max * 1e6);
    expect(last).toEqual({
      year: 9999,
      month: 12,
      day: 31,
      hour: 23,
      minute: 59,
      second: 59,
      micro: 0,
    });
  });

  it('partsFromInstant refuses non-integers', () => {
    expect(() => partsFromInstant(1.5)).toThrow(RangeError);
    expect(() => partsFromInstant(Number.NaN)).toThrow(RangeError);
    expect(() => partsFromInstant(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it('an offset shifts the instant', () => {
    const p = { year: 2024, month: 5, day: 17, hour: 11, minute: 30, second: 0, micro: 0 };
    expect(instantFromParts(p, 120)).toBe(instantFromParts({ ...p, hour: 9 }));
  });

  it('Date conversions keep milliseconds and drop microseconds', () => {
    const d = new Date(Date.UTC(2024, 4, 17, 9, 30, 0, 123));
    expect(instantFromDate(d)).toBe(d.getTime() * 1000);
    expect(instantToDate(instantFromDate(d) + 999).getTime()).toBe(d.getTime());
    expect(instantToDate(-1).getTime()).toBe(-1);
    expect(instantFromCalendarDate({ year: 1970, month: 1, day: 2 })).toBe(DAY);
  });
});
