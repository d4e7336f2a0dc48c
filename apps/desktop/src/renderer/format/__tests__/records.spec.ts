import { describe, expect, it } from 'vitest';
import { localInputToRfc3339, rfc3339ToLocalInput } from '../../forms/local-datetime';
import {
  formatAreaSqM,
  formatAssetDate,
  formatCode,
  formatMicroTimestamp,
  formatTaskDate,
  itemGeometries,
  validationErrorText,
} from '../records';
import { formatLocalDateTime } from '../units';

const square = {
  type: 'Polygon',
  coordinates: [
    [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 0],
    ],
  ],
};

describe('record formats', () => {
  it('reads the spec date layouts with the domain codecs', () => {
    expect(formatTaskDate('03-06-2024', 'en-GB')).toBe('3 Jun 2024');
    expect(formatTaskDate('31-02-2024')).toBe('31-02-2024'); // impossible: shown as given
    expect(formatAssetDate('2024-05-12', 'en-GB')).toBe('12 May 2024');
    expect(
      formatMicroTimestamp('2024-05-17 08:30:00.123456+00:00', {
        timeZone: 'Europe/Berlin',
        locale: 'en-GB',
      }),
    ).toBe(
      formatLocalDateTime('2024-05-17T08:30:00.123Z', {
        timeZone: 'Europe/Berlin',
        locale: 'en-GB',
      }),
    );
    expect(formatMicroTimestamp(null)).toBe('—');
  });

  it('shows areas in km² and ha, codes as words', () => {
    expect(formatAreaSqM(1_250_000)).toBe(
      `${(1.25).toLocaleString()} km² (${(125).toLocaleString()} ha)`,
    );
    expect(formatCode('PARTIAL-REFUND')).toBe('Partial refund');
    expect(formatCode('PARTIALLY_COMPLETED')).toBe('Partially completed');
  });

  it('words validation errors of any shape', () => {
    expect(
      validationErrorText({ code: 'X', field: 'item_ids.1', message: 'scene is cloudy' }),
    ).toBe('scene is cloudy (item ids.1)');
    expect(validationErrorText({ code: 'LIMIT', limit: 3, nested: { a: 1 } })).toBe(
      'code: LIMIT, limit: 3, nested: {"a":1}',
    );
    expect(validationErrorText({})).toBe('A problem without a description.');
  });

  it("draws an item's geometry, else its images' footprints", () => {
    expect(
      itemGeometries({
        geometry: { type: 'FeatureCollection', features: [{ type: 'Feature', geometry: square }] },
      }),
    ).toEqual([square]);
    expect(itemGeometries({ geometry: square })).toEqual([square]);
    expect(
      itemGeometries({ geometry: null, images: [{ geometry: square }, { geometry: 'bad' }] }),
    ).toEqual([square]);
  });
});

describe('datetime-local <-> RFC 3339', () => {
  it('converts local wall-clock time to UTC and back', () => {
    const iso = localInputToRfc3339('2030-06-01T09:15');
    expect(iso).toBe(new Date(2030, 5, 1, 9, 15).toISOString().replace('.000Z', 'Z'));
    expect(rfc3339ToLocalInput(iso)).toBe('2030-06-01T09:15');
    expect(localInputToRfc3339('2030-02-30T09:00')).toBeNull();
    expect(localInputToRfc3339('soon')).toBeNull();
    expect(rfc3339ToLocalInput('garbage')).toBe('');
  });
});
