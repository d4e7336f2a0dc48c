import { describe, expect, it, vi } from 'vitest';
import { utmWkt2 } from '@eo/domain';
import { crsOfWkt } from '../crs-name';
import { propertyRows } from '../stac-properties';
import {
  formatBytes,
  formatDegrees,
  formatLocalDateTime,
  formatMeters,
  formatPercent,
  formatRelative,
  localDayToIso,
  MISSING,
} from '../units';

describe('units', () => {
  it('formats values with their units and an em dash for missing ones', () => {
    expect(formatPercent(12.345)).toBe('12.3 %');
    expect(formatDegrees(7)).toBe('7°');
    expect(formatMeters(0.5)).toBe('0.5 m');
    expect(formatMeters(30)).toBe('30 m');
    expect(formatMeters(1500)).toBe('1.5 km');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(0)).toBe('0 B');
    for (const f of [formatPercent, formatDegrees, formatMeters, formatBytes]) {
      expect(f(null)).toBe(MISSING);
      expect(f(undefined)).toBe(MISSING);
      expect(f(Number.NaN)).toBe(MISSING);
    }
  });

  it('shows timestamps in the given local zone, with the zone named', () => {
    const iso = '2024-05-17T08:30:00Z';
    const berlin = formatLocalDateTime(iso, { timeZone: 'Europe/Berlin', locale: 'en-GB' });
    expect(berlin).toContain('10:30');
    expect(berlin).toMatch(/CEST|GMT\+2/);
    const tokyo = formatLocalDateTime(iso, { timeZone: 'Asia/Tokyo', locale: 'en-GB' });
    expect(tokyo).toContain('17:30');
    expect(formatLocalDateTime('not a date')).toBe('not a date');
    expect(formatLocalDateTime(null)).toBe(MISSING);
  });

  it("follows the computer's zone when it changes while the app runs (formatters are kept)", () => {
    const iso = '2024-05-17T08:30:00Z';
    try {
      vi.stubEnv('TZ', 'Europe/Berlin');
      expect(formatLocalDateTime(iso, { locale: 'en-GB' })).toContain('10:30');
      expect(formatLocalDateTime(iso, { locale: 'en-GB' })).toContain('10:30');
      vi.stubEnv('TZ', 'America/New_York');
      expect(formatLocalDateTime(iso, { locale: 'en-GB' })).toContain('04:30');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('says how long ago something happened', () => {
    const now = Date.parse('2024-05-17T12:00:00Z');
    expect(formatRelative('2024-05-17T11:55:00Z', now, 'en')).toBe('5 minutes ago');
    expect(formatRelative('2024-05-15T12:00:00Z', now, 'en')).toBe('2 days ago');
    // A backend clock a second ahead is still "now".
    expect(formatRelative('2024-05-17T12:00:01Z', now, 'en')).toBe('now');
  });

  it('turns a local calendar day into the instants bounding it', () => {
    const start = localDayToIso('2024-05-17', 'start');
    const end = localDayToIso('2024-05-17', 'end');
    expect(start).not.toBeNull();
    expect(Date.parse(end!) - Date.parse(start!)).toBe(24 * 3600 * 1000 - 1);
    expect(new Date(start!).getHours()).toBe(0);
    expect(localDayToIso('2024-02-30', 'start')).toBeNull();
    expect(localDayToIso('yesterday', 'start')).toBeNull();
  });
});

describe('propertyRows', () => {
  it('lists known STAC properties first with labels and units, the rest after', () => {
    const rows = propertyRows(
      {
        zeta: 'z',
        'eo:cloud_cover': 3.25,
        datetime: '2024-05-17T08:30:00Z',
        'view:off_nadir': 12.5,
        gsd: 0.75,
        instruments: ['msi', 'pan'],
        'proj:epsg': 32633,
        alpha: { nested: true },
      },
      { timeZone: 'UTC', locale: 'en-GB' },
    );
    expect(rows.map((r) => r.label)).toEqual([
      'Acquired',
      'Cloud cover',
      'Off-nadir angle',
      'Ground sample distance',
      'Instruments',
      'Projection',
      'alpha',
      'zeta',
    ]);
    const value = (label: string) => rows.find((r) => r.label === label)?.value;
    expect(value('Cloud cover')).toBe('3.3 %');
    expect(value('Off-nadir angle')).toBe('12.5°');
    expect(value('Ground sample distance')).toBe('0.75 m');
    expect(value('Instruments')).toBe('msi, pan');
    expect(value('Projection')).toBe('EPSG:32633');
    expect(value('Acquired')).toContain('08:30');
    expect(value('alpha')).toBe('{"nested":true}');
  });

  it('names the CRS of proj:wkt2 (name and EPSG), the WKT kept as its detail', () => {
    const wkt = utmWkt2(33, false);
    const [row] = propertyRows({ 'proj:wkt2': wkt });
    expect(row).toEqual({
      key: 'proj:wkt2',
      label: 'Coordinate reference system',
      value: 'WGS 84 / UTM zone 33N (EPSG:32633)',
      detail: wkt,
    });
    // The top-level code, not the conversion method's (9807) nor a base CRS's.
    expect(crsOfWkt(utmWkt2(21, true))).toEqual({ name: 'WGS 84 / UTM zone 21S', epsg: 32721 });
    const wkt1 =
      'PROJCS["ETRS89 / UTM zone 32N",GEOGCS["ETRS89",AUTHORITY["EPSG","4258"]],' +
      'UNIT["metre",1,AUTHORITY["EPSG","9001"]],AUTHORITY["EPSG","25832"]]';
    expect(crsOfWkt(wkt1)).toEqual({ name: 'ETRS89 / UTM zone 32N', epsg: 25832 });
    expect(propertyRows({ 'proj:wkt2': 'not a CRS' })[0]!.value).toBe('unnamed (WKT)');
  });
});
