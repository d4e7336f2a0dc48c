import { describe, expect, it } from 'vitest';
import { CatalogSearchRequest, runCatalogSearch } from '@eo/domain';
import { buildCatalogRecord, createRng } from '@eo/domain/testing';
import { buildQuery, emptyFilters, filtersFromQuery, viewToBbox } from '../catalog-filters';

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
    // UTC days, whatever the computer's zone (the one rule the pickers say).
    expect(from).toBe('2024-05-01T00:00:00.000Z');
    expect(to).toBe('2024-05-31T23:59:59.999Z');
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
      gsdMax: '1.5',
      sunElevationMin: '30',
      platforms: ['spot-7', 'pleiades-1a'],
      collections: ['a', 'b'],
      sort: 'datetime-asc' as const,
    };
    const built = buildQuery(f);
    if (!built.ok) throw new Error('expected a valid query');
    expect(filtersFromQuery(built.query)).toEqual(f);
  });
});

describe("filters on the records' own properties", () => {
  it('become `query` terms the domain search applies (the same online and in the mirror)', () => {
    const built = buildQuery({
      ...emptyFilters(),
      gsdMax: '3',
      sunElevationMin: 40,
      platforms: ['superdove-2401', 'spot-7'],
    });
    if (!built.ok) throw new Error('expected a valid query');
    expect(built.query.query).toEqual({
      gsd: { lte: 3 },
      'view:sun_elevation': { gte: 40 },
      platform: { eq: ['superdove-2401', 'spot-7'] },
    });
    const rng = createRng(18);
    const records = Array.from({ length: 300 }, () => buildCatalogRecord({}, { rng }));
    const req = CatalogSearchRequest.parse({ ...built.query, limit: 1000 });
    const found = runCatalogSearch(
      records.map((record) => ({ record, links: { orderId: null, orderItemId: null } })),
      req,
    ).catalogs;
    const expected = records.filter((r) => {
      const p = r.details.properties;
      return (
        (p.gsd ?? Infinity) <= 3 &&
        (p['view:sun_elevation'] ?? -1) >= 40 &&
        ['superdove-2401', 'spot-7'].includes(p.platform ?? '')
      );
    });
    expect(expected.length).toBeGreaterThan(10);
    expect(found.map((r) => r.id).sort()).toEqual(expected.map((r) => r.id).sort());
  });

  it('says which property value is out of range', () => {
    const built = buildQuery({ ...emptyFilters(), gsdMax: '-1', sunElevationMin: '95' });
    expect(built.ok).toBe(false);
    if (built.ok) return;
    expect(built.errors.gsdMax).toMatch(/metres/);
    expect(built.errors.sunElevationMin).toMatch(/0 to 90/);
  });
});
