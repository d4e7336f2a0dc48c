import { describe, expect, it } from 'vitest';
import { presetLabel, presetRange } from '../date-presets';

describe('date presets', () => {
  // 00:30 UTC on 26 Nov: still the 25th west of Greenwich; the presets follow the UTC day.
  const now = new Date('2026-11-26T00:30:00Z');

  it('count today in: the last 7 and 30 UTC days', () => {
    expect(presetRange('last7', now)).toEqual({ from: '2026-11-20', to: '2026-11-26' });
    expect(presetRange('last30', now)).toEqual({ from: '2026-10-28', to: '2026-11-26' });
  });

  it('take this meteorological season so far, across the new year in winter', () => {
    expect(presetRange('season', now)).toEqual({ from: '2026-09-01', to: '2026-11-26' });
    expect(presetLabel('season', now)).toBe('This season (Sep–Nov)');
    const january = new Date('2027-01-15T12:00:00Z');
    expect(presetRange('season', january)).toEqual({ from: '2026-12-01', to: '2027-01-15' });
    expect(presetLabel('season', january)).toBe('This season (Dec–Feb)');
    expect(presetRange('season', new Date('2026-03-01T00:00:00Z')).from).toBe('2026-03-01');
  });
});
