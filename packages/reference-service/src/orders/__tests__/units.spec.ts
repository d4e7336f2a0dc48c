/** The pure parts of the order flow: windows, feasibility, price, coverage. */
import { parseRfc3339 } from '@eo/domain';
import { describe, expect, it } from 'vitest';
import { satelliteById } from '../../reference/catalog';
import { expectedAcquisitions, feasibilityOf, revisitDays } from '../feasibility';
import { footprintsCover } from '../geo';
import { addPeriods, recurringWindows } from '../occurrences';
import { priceItem } from '../pricing';
import { boxPolygon } from './fixtures';

const at = (s: string) => parseRfc3339(s);
const DAY = 86_400_000_000;
const aurora = satelliteById('sat-aurora-1')!;
const kestrel = satelliteById('sat-kestrel-1')!;

describe('occurrence windows', () => {
  it('adds calendar months, clamping the day and crossing years', () => {
    expect(addPeriods(at('2031-12-31T10:00:00Z'), 'MONTHLY', 2)).toBe(at('2032-02-29T10:00:00Z'));
    expect(addPeriods(at('2030-11-15T00:00:00Z'), 'MONTHLY', 3)).toBe(at('2031-02-15T00:00:00Z'));
    expect(addPeriods(at('2030-01-01T00:00:00Z'), 'WEEKLY', 2)).toBe(at('2030-01-15T00:00:00Z'));
  });

  it('cuts the period into windows and says how many fit when too many are asked', () => {
    const start = at('2030-01-01T00:00:00Z');
    const end = at('2030-01-10T00:00:00Z');
    const ok = recurringWindows(start, end, 'DAILY', 9);
    expect(ok.ok && ok.windows.length).toBe(9);
    expect(recurringWindows(start, end, 'DAILY', 10)).toEqual({ ok: false, fit: 9 });
    const weekly = recurringWindows(start, end, 'WEEKLY', 2);
    expect(weekly).toEqual({
      ok: true,
      windows: [
        { start, end: start + 7 * DAY },
        { start: start + 7 * DAY, end },
      ],
    });
  });
});

describe('feasibility', () => {
  it('grows the revisit as the off-nadir allowance shrinks', () => {
    expect(revisitDays(aurora, 30)).toBe(1);
    expect(revisitDays(aurora, 10)).toBe(3);
    expect(revisitDays(kestrel, 30)).toBe(2);
    expect(revisitDays(aurora, 0)).toBe(10); // floored at 3°
  });

  it('counts only the part of the window still ahead', () => {
    const w = { start: 0, end: 10 * DAY };
    expect(expectedAcquisitions(w, 0, aurora, 20, 30)).toBeCloseTo(2);
    expect(expectedAcquisitions(w, 5 * DAY, aurora, 20, 30)).toBeCloseTo(1);
    expect(expectedAcquisitions(w, 11 * DAY, aurora, 20, 30)).toBe(0);
  });

  it('maps expected acquisitions to the three statuses at 2 and 0.5', () => {
    expect([2, 1.99, 0.5, 0.49, 0].map(feasibilityOf)).toEqual([
      'SUCCESS',
      'WEAK_SUCCESS',
      'WEAK_SUCCESS',
      'FAILED',
      'FAILED',
    ]);
  });
});

describe('price', () => {
  const base = {
    areaKm2: 100,
    occurrences: 1,
    deliverySpeed: 'STANDARD' as const,
    cloudCover: null,
    offNadir: null,
    satellite: aurora,
  };

  it('multiplies the billable area, the rate and the occurrences', () => {
    expect(priceItem({ ...base, type: 'ARCHIVE' }).baseAmount).toBe(250);
    expect(priceItem({ ...base, type: 'RECURRING', occurrences: 4 }).baseAmount).toBe(3200);
    expect(priceItem({ ...base, type: 'TASKING', areaKm2: 3 }).billableKm2).toBe(25);
    expect(priceItem({ ...base, type: 'ARCHIVE', areaKm2: 0.2 }).baseAmount).toBe(2.5);
  });

  it('rounds to cents and charges whole tokens', () => {
    const p = priceItem({ ...base, type: 'ARCHIVE', areaKm2: 33.3333, deliverySpeed: 'PRIORITY' });
    expect(p.baseAmount).toBe(83.33);
    expect(p.uplifts[0]!.amount).toBe(20.83);
    expect(p.finalAmount).toBe(104.16);
    expect(p.tokensUsed).toBe(105);
  });

  it('applies acquisition uplifts to tasking only', () => {
    const strict = { ...base, cloudCover: 5, offNadir: 10 };
    expect(priceItem({ ...strict, type: 'ARCHIVE' }).uplifts).toEqual([]);
    expect(priceItem({ ...strict, type: 'TASKING' }).uplifts.map((u) => u.percentage)).toEqual([
      20, 15,
    ]);
  });
});

describe('archive coverage', () => {
  it('counts vertices on a footprint edge as covered and needs every vertex', () => {
    const scene = boxPolygon([0, 0, 1, 1]);
    expect(footprintsCover([scene], boxPolygon([0, 0, 1, 1]))).toBe(true);
    expect(footprintsCover([scene], boxPolygon([0.5, 0.5, 1.5, 0.9]))).toBe(false);
    expect(
      footprintsCover([scene, boxPolygon([1, 0, 2, 1])], boxPolygon([0.5, 0.5, 1.5, 0.9])),
    ).toBe(true);
  });
});
