import { describe, expect, it } from 'vitest';
import { runCatalogSearch, type SearchableRecord } from '../evaluate';
import { CatalogSearchRequest } from '../request';
import { record, rect } from './records';

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('100 000 records', () => {
  const random = rng(2024);
  const grid = (k: number) => Math.round(random() * k) / 4; // quarter degrees: many touches
  const rows: Array<{
    rec: SearchableRecord;
    box: [number, number, number, number];
    cc: number;
    day: number;
  }> = [];
  for (let i = 0; i < 100_000; i++) {
    const x = grid(1400) - 175;
    const y = grid(680) - 85;
    const box: [number, number, number, number] = [x, y, x + grid(20), y + grid(20)];
    const cc = Math.floor(random() * 101);
    const day = 1 + Math.floor(random() * 28);
    rows.push({
      rec: record({
        id: `rec-${String(i).padStart(6, '0')}`,
        geometry: rect(...box),
        properties: {
          'eo:cloud_cover': cc,
          datetime: `2024-02-${String(day).padStart(2, '0')}T12:00:00Z`,
        },
      }),
      box,
      cc,
      day,
    });
  }
  const records = rows.map((r) => r.rec);

  it('matches an independent interval formula, sorts and pages', () => {
    const bbox: [number, number, number, number] = [170, -20, -170, 30]; // crosses the antimeridian
    const req = CatalogSearchRequest.parse({
      bbox,
      datetime: '2024-02-10T12:00:00Z/2024-02-20T12:00:00Z',
      query: { 'eo:cloud_cover': { lte: 40 } },
      sort_by: [{ field: 'eo:cloud_cover', direction: 'desc' }],
      offset: 5,
      limit: 50,
    });
    const result = runCatalogSearch(records, req);

    const expected = rows
      .filter(({ box: [x1, y1, x2, y2], cc, day }) => {
        const spatial = y1 <= 30 && y2 >= -20 && (x2 >= 170 || x1 <= -170);
        return spatial && cc <= 40 && day >= 10 && day <= 20;
      })
      .sort((a, b) => b.cc - a.cc || (a.rec.record.id < b.rec.record.id ? -1 : 1));
    expect(expected.length).toBeGreaterThan(100); // the filters select a real sample
    expect(result.total).toBe(expected.length);
    expect(result.catalogs.map((c) => c.id)).toEqual(
      expected.slice(5, 55).map((r) => r.rec.record.id),
    );
  });
});
