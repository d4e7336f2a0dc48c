import { describe, expect, it } from 'vitest';
import { Bbox, CatalogSearchRequest, LIMITS, isTimestampProperty, resolvePath } from '../../index';
import { expectIssueAt, issuesOf, parseOk } from '../../__tests__/support';
import { buildCatalogSearchRequest, buildPolygon } from '../../testing';

describe('catalog search (4.3): defaults and bounds', () => {
  it('an empty body: limit 100, offset 0', () => {
    expect(parseOk(CatalogSearchRequest, {})).toEqual({ limit: 100, offset: 0 });
  });

  it('offset >= 0; limit 1..max; integers; no coercion', () => {
    parseOk(CatalogSearchRequest, { limit: 1, offset: 0 });
    expectIssueAt(CatalogSearchRequest, { offset: -1 }, ['offset'], 'offset must be at least 0');
    expectIssueAt(CatalogSearchRequest, { limit: 0 }, ['limit'], 'limit must be at least 1');
    expectIssueAt(
      CatalogSearchRequest,
      { limit: LIMITS.maxLimit + 1 },
      ['limit'],
      `limit must be at most ${LIMITS.maxLimit}`,
    );
    expectIssueAt(CatalogSearchRequest, { limit: 2.5 }, ['limit'], 'limit must be an integer');
    expectIssueAt(CatalogSearchRequest, { offset: '10' }, ['offset']);
  });

  it('unknown fields are rejected by name', () => {
    const issue = expectIssueAt(CatalogSearchRequest, { filter: 'cloud<10' }, []);
    expect(issue.code).toBe('unrecognized_keys');
    expect(issue.message).toContain('filter');
  });
});

describe('bbox', () => {
  it('four numbers: west, south, east, north', () => {
    expect(parseOk(Bbox, [1.5, 48, 2, 48.5])).toEqual([1.5, 48, 2, 48.5]);
    expect(parseOk(Bbox, [-180, -90, 180, 90])).toEqual([-180, -90, 180, 90]);
  });

  it('crossing the antimeridian: the first value is larger than the third', () => {
    expect(parseOk(CatalogSearchRequest, { bbox: [170, -10, -170, 10] }).bbox).toEqual([
      170, -10, -170, 10,
    ]);
  });

  it.each([[[1, 2, 3]], [[1, 2, 3, 4, 5]], [[]], [['1', '2', '3', '4']], ['1,2,3,4']])(
    'shape %j rejected',
    (bbox) => {
      const issues = issuesOf(CatalogSearchRequest, { bbox });
      expect(issues[0]!.path[0]).toBe('bbox');
      if (Array.isArray(bbox) && bbox.length !== 4) {
        expect(issues[0]!.message).toBe(
          'bbox is four numbers: [min lon, min lat, max lon, max lat]',
        );
      }
    },
  );

  it('ranges, each at its index', () => {
    expectIssueAt(
      CatalogSearchRequest,
      { bbox: [-181, 0, 1, 1] },
      ['bbox', 0],
      'longitude must be within -180..180',
    );
    expectIssueAt(
      CatalogSearchRequest,
      { bbox: [0, 0, 180.5, 1] },
      ['bbox', 2],
      'longitude must be within -180..180',
    );
    expectIssueAt(
      CatalogSearchRequest,
      { bbox: [0, -91, 1, 1] },
      ['bbox', 1],
      'latitude must be within -90..90',
    );
    expectIssueAt(
      CatalogSearchRequest,
      { bbox: [0, 0, 1, 90.1] },
      ['bbox', 3],
      'latitude must be within -90..90',
    );
    expectIssueAt(CatalogSearchRequest, { bbox: [0, 10, 1, 5] }, ['bbox', 3], /below min latitude/);
  });

  it('bbox and intersects are exclusive', () => {
    expectIssueAt(
      CatalogSearchRequest,
      { bbox: [0, 0, 1, 1], intersects: buildPolygon() },
      ['intersects'],
      'give bbox or intersects, not both',
    );
    parseOk(CatalogSearchRequest, { intersects: buildPolygon() });
    parseOk(CatalogSearchRequest, { intersects: { type: 'Point', coordinates: [1.6, 48.2] } });
    parseOk(CatalogSearchRequest, {
      intersects: {
        type: 'GeometryCollection',
        geometries: [{ type: 'Point', coordinates: [1, 2] }],
      },
    });
    const open = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 1],
        ],
      ],
    };
    expectIssueAt(
      CatalogSearchRequest,
      { intersects: open },
      ['intersects', 'coordinates', 0],
      /must be closed/,
    );
  });
});

describe('id lists', () => {
  it.each(['collections', 'ids', 'item_ids', 'order_ids', 'order_item_ids'])(
    '%s: non-empty list of non-empty strings',
    (key) => {
      expect(parseOk(CatalogSearchRequest, { [key]: ['a', 'b'] })[key as 'ids']).toEqual([
        'a',
        'b',
      ]);
      expectIssueAt(
        CatalogSearchRequest,
        { [key]: [] },
        [key],
        `${key} is empty; omit the field to not filter`,
      );
      expectIssueAt(CatalogSearchRequest, { [key]: ['a', ''] }, [key, 1]);
      expectIssueAt(CatalogSearchRequest, { [key]: 'a,b' }, [key]);
    },
  );
});

describe('datetime', () => {
  it.each([
    '2024-05-17T09:30:00Z',
    '2024-05-17T11:30:00+02:00',
    '2024-05-01T00:00:00Z/2024-05-31T23:59:59Z',
    '../2024-05-31T23:59:59Z',
    '2024-05-01T00:00:00Z/..',
  ])('accepts %s', (datetime) => {
    expect(parseOk(CatalogSearchRequest, { datetime }).datetime).toBe(datetime);
  });

  it.each([
    ['2024-05-17', /a date alone/],
    ['../..', /at least one end/],
    ['2024-05-31T00:00:00Z/2024-05-01T00:00:00Z', /reversed/],
    ['2024-05-01T00:00:00Z/', /empty/],
  ])('rejects %s', (datetime, message) => {
    expectIssueAt(CatalogSearchRequest, { datetime }, ['datetime'], message);
  });
});

describe('query', () => {
  it('operators gt, lt, eq (scalar or list) and gte, lte, neq', () => {
    const query = {
      'eo:cloud_cover': { lt: 20, gte: 0 },
      gsd: { gt: 0.5, lte: 3 },
      platform: { eq: ['sentinel-2a', 'sentinel-2b'] },
      constellation: { neq: 'landsat' },
      'sat:orbit_state': { eq: 'descending' },
      'custom:flag': { eq: true },
    };
    expect(parseOk(CatalogSearchRequest, { query }).query).toEqual(query);
  });

  it('rejects unknown operators, empty operator objects, empty eq lists and unorderable values', () => {
    const unknown = expectIssueAt(CatalogSearchRequest, { query: { gsd: { like: 3 } } }, [
      'query',
      'gsd',
    ]);
    expect(unknown.message).toContain('like');
    expectIssueAt(
      CatalogSearchRequest,
      { query: { gsd: {} } },
      ['query', 'gsd'],
      'give at least one operator: eq, neq, gt, gte, lt, lte',
    );
    expectIssueAt(CatalogSearchRequest, { query: { platform: { eq: [] } } }, [
      'query',
      'platform',
      'eq',
    ]);
    expectIssueAt(CatalogSearchRequest, { query: { gsd: { gt: [1, 2] } } }, ['query', 'gsd', 'gt']);
    expectIssueAt(CatalogSearchRequest, { query: { gsd: { gt: true } } }, ['query', 'gsd', 'gt']);
    expectIssueAt(CatalogSearchRequest, { query: { gsd: { eq: null } } }, ['query', 'gsd', 'eq']);
    expectIssueAt(CatalogSearchRequest, { query: { gsd: 3 } }, ['query', 'gsd']);
    expectIssueAt(CatalogSearchRequest, { query: { '': { eq: 1 } } }, ['query', '']);
  });

  it('timestamp properties and fields are compared with RFC 3339 date-times only', () => {
    parseOk(CatalogSearchRequest, {
      query: {
        datetime: { gte: '2024-05-01T00:00:00Z', lt: '2024-06-01T00:00:00+02:00' },
        'properties.created': { eq: ['2024-05-01T00:00:00Z', '2024-05-02T00:00:00Z'] },
        updated_at: { gt: '2024-05-01T00:00:00Z' },
      },
    });
    const msg = /is a timestamp: compare it with an RFC 3339 date-time/;
    expectIssueAt(
      CatalogSearchRequest,
      { query: { datetime: { gt: '2024-05-01' } } },
      ['query', 'datetime', 'gt'],
      msg,
    );
    expectIssueAt(
      CatalogSearchRequest,
      { query: { 'properties.updated': { lt: 1714521600 } } },
      ['query', 'properties.updated', 'lt'],
      msg,
    );
    expectIssueAt(
      CatalogSearchRequest,
      { query: { created_at: { eq: ['2024-05-01T00:00:00Z', 'yesterday'] } } },
      ['query', 'created_at', 'eq'],
      msg,
    );
    expectIssueAt(
      CatalogSearchRequest,
      { query: { start_datetime: { eq: true } } },
      ['query', 'start_datetime', 'eq'],
      msg,
    );
    // Not a timestamp: any orderable value.
    parseOk(CatalogSearchRequest, {
      query: { title: { gt: 'M' }, 'eo:cloud_cover': { lt: '20' } },
    });
  });

  it('paths: properties.<key> and bare keys name the same property', () => {
    expect(resolvePath('properties.eo:cloud_cover')).toEqual({
      kind: 'property',
      key: 'eo:cloud_cover',
    });
    expect(resolvePath('eo:cloud_cover')).toEqual({ kind: 'property', key: 'eo:cloud_cover' });
    expect(resolvePath('created_at')).toEqual({ kind: 'record', field: 'created_at' });
    expect(resolvePath('properties.created_at')).toEqual({ kind: 'property', key: 'created_at' });
    expect(isTimestampProperty('datetime')).toBe(true);
    expect(isTimestampProperty('properties.datetime')).toBe(true);
    expect(isTimestampProperty('updated_at')).toBe(true);
    expect(isTimestampProperty('area')).toBe(false);
    expect(isTimestampProperty('gsd')).toBe(false);
  });
});

describe('sort_by', () => {
  it('direction defaults to asc', () => {
    expect(
      parseOk(CatalogSearchRequest, { sort_by: [{ field: 'properties.datetime' }] }).sort_by,
    ).toEqual([{ field: 'properties.datetime', direction: 'asc' }]);
    expect(
      parseOk(CatalogSearchRequest, { sort_by: [{ field: 'gsd', direction: 'desc' }] }).sort_by?.[0]
        ?.direction,
    ).toBe('desc');
  });

  it('rejects other directions, empty fields, extra keys and more than 10 keys', () => {
    expectIssueAt(CatalogSearchRequest, { sort_by: [{ field: 'gsd', direction: 'DESC' }] }, [
      'sort_by',
      0,
      'direction',
    ]);
    expectIssueAt(
      CatalogSearchRequest,
      { sort_by: [{ field: '' }] },
      ['sort_by', 0, 'field'],
      'sort field is required',
    );
    expectIssueAt(CatalogSearchRequest, { sort_by: [{ field: 'gsd', nulls: 'last' }] }, [
      'sort_by',
      0,
    ]);
    const many = Array.from({ length: 11 }, (_, i) => ({ field: `f${i}` }));
    expectIssueAt(CatalogSearchRequest, { sort_by: many }, ['sort_by'], 'at most 10 sort keys');
  });
});

describe('the realistic builder', () => {
  it('parses, keeping every value it sets', () => {
    const body = buildCatalogSearchRequest();
    expect(parseOk(CatalogSearchRequest, body)).toEqual(body);
  });
});

describe('query keys named __proto__ (as JSON.parse makes them)', () => {
  it('reads a bare "__proto__" key as properties.__proto__ instead of dropping the filter', () => {
    const r = CatalogSearchRequest.parse(
      JSON.parse('{"query":{"__proto__":{"eq":1},"gsd":{"lt":5}}}'),
    );
    expect(Object.keys(r.query!)).toEqual(['properties.__proto__', 'gsd']);
    expect(r.query!['properties.__proto__']).toEqual({ eq: 1 });
    const both = CatalogSearchRequest.safeParse(
      JSON.parse('{"query":{"properties.__proto__":{"eq":1},"__proto__":{"eq":2}}}'),
    );
    expect(both.success).toBe(false);
    expect(both.error!.issues.map((i) => i.path.join('.'))).toEqual(['query.__proto__']);
  });
});
