import { describe, expect, it } from 'vitest';
import { buildQuery, emptyFilters, filtersFromQuery, viewToBbox } from '../filters';

describe('buildQuery', () => {
  it('builds the domain request from the form', () => {
    const f = {
      ...emptyFilters(),
      dateFrom: '2024-05-01',
      dateTo: '2024-05-31',
      cloudMax: '20',
      offNadirMax: 25,
      collections: ['sentinel-2-l2a'],
      area: { kind: 'view' as const, bbox: [10, 40, 20, 50] as [number, number, number, number] },
      sort: 'cloud-asc' as const,
    };
    const built = buildQuery(f, { limit: 50, offset: 100 });
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    const [from, to] = built.query.datetime!.split('/');
    // The user's local days, as instants.
    expect(new Date(from!).getDate()).toBe(1);
    expect(new Date(to!).getDate()).toBe(31);
    expect(new Date(to!).getHours()).toBe(23);
    expect(built.query).toMatchObject({
      query: { 'eo:cloud_cover': { lte: 20 }, 'view:off_nadir': { lte: 25 } },
      collections: ['sentinel-2-l2a'],
      bbox: [10, 40, 20, 50],
      sort_by: [{ field: 'eo:cloud_cover', direction: 'asc' }],
      limit: 50,
      offset: 100,
    });
  });

  it('reports a polygon the service would refuse on the area field', () => {
    const built = buildQuery({
      ...emptyFilters(),
      area: {
        kind: 'polygon',
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [0, 0],
              [1, 1],
              [0, 0],
            ],
          ],
        },
      },
    });
    expect(built.ok).toBe(false);
    expect(!built.ok && built.errors.area).toBeTruthy();
  });

  it('gives a start date alone an open end', () => {
    const built = buildQuery({ ...emptyFilters(), dateFrom: '2024-05-01' });
    expect(built.ok && built.query.datetime).toMatch(/Z\/\.\.$/);
  });
});

describe('viewToBbox', () => {
  it('clamps to the world, brings world copies back, and widens across the antimeridian', () => {
    expect(viewToBbox(-10, 40, 10, 50)).toEqual([-10, 40, 10, 50]);
    expect(viewToBbox(350, 40, 370, 50)).toEqual([-10, 40, 10, 50]);
    expect(viewToBbox(170, -95, 190, 50)).toEqual([-180, -90, 180, 50]);
    expect(viewToBbox(-400, -80, 400, 80)).toBeNull();
  });
});

describe('filtersFromQuery', () => {
  it('restores the form from a saved query', () => {
    const f = {
      ...emptyFilters(),
      dateFrom: '2024-05-01',
      dateTo: '2024-05-31',
      cloudMax: '20',
      offNadirMax: '10',
      collections: ['a', 'b'],
      sort: 'datetime-asc' as const,
    };
    const built = buildQuery(f);
    if (!built.ok) throw new Error('expected a valid query');
    expect(filtersFromQuery(built.query)).toEqual(f);
  });
});
