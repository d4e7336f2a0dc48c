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

  it('names the season for the hemisphere looked at; the tropics take the last 3 months', () => {
    expect(presetLabel('season', now, 48.1)).toBe('This autumn (Sep–Nov)');
    expect(presetLabel('season', now, -34.6)).toBe('This spring (Sep–Nov)');
    expect(presetRange('season', now, -34.6)).toEqual({ from: '2026-09-01', to: '2026-11-26' });
    const january = new Date('2027-01-15T12:00:00Z');
    expect(presetLabel('season', january, 52)).toBe('This winter (Dec–Feb)');
    expect(presetLabel('season', january, -41)).toBe('This summer (Dec–Feb)');
    expect(presetLabel('season', new Date('2026-04-10T00:00:00Z'), 45)).toBe(
      'This spring (Mar–May)',
    );
    expect(presetLabel('season', new Date('2026-07-10T00:00:00Z'), -33)).toBe(
      'This winter (Jun–Aug)',
    );
    // Lake Naivasha (0.8° S): no four seasons there.
    expect(presetLabel('season', now, -0.78)).toBe('Last 3 months');
    expect(presetRange('season', now, -0.78)).toEqual({ from: '2026-08-27', to: '2026-11-26' });
  });
});
