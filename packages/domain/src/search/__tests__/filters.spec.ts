import { describe, expect, it } from 'vitest';
import type { Geometry, Polygon } from '../../geometry';
import { compileCatalogSearch, runCatalogSearch, type SearchableRecord } from '../evaluate';
import { CatalogSearchRequest, type CatalogSearchRequestInput } from '../request';
import { ids, record, rect } from './records';

function search(records: SearchableRecord[], input: CatalogSearchRequestInput) {
  return runCatalogSearch(records, CatalogSearchRequest.parse(input));
}
/** Ids of the matching records, in id order (these specs are about filtering, not order). */
function matching(records: SearchableRecord[], input: CatalogSearchRequestInput): string[] {
  return ids(search(records, { ...input, sort_by: [{ field: 'id' }] }));
}

describe('id filters', () => {
  const records = [
    record({ id: 'a', itemId: 'item-1', collection: 'optical', orderId: 'o1', orderItemId: 'oi1' }),
    record({ id: 'b', itemId: 'item-2', collection: 'sar', orderId: 'o1', orderItemId: 'oi2' }),
    record({ id: 'c', itemId: 'item-3', collection: null, orderId: null, orderItemId: null }),
  ];

  it('ids match the record id', () => {
    expect(matching(records, { ids: ['c', 'a', 'zzz'] })).toEqual(['a', 'c']);
  });
  it('item_ids match details.id, not the record id', () => {
    expect(matching(records, { item_ids: ['item-2', 'a'] })).toEqual(['b']);
  });
  it('collections match details.collection; a null collection never matches', () => {
    expect(matching(records, { collections: ['sar', 'optical'] })).toEqual(['a', 'b']);
  });
  it('order_ids and order_item_ids match the links; null links never match', () => {
    expect(matching(records, { order_ids: ['o1'] })).toEqual(['a', 'b']);
    expect(matching(records, { order_item_ids: ['oi2', 'oi9'] })).toEqual(['b']);
  });
  it('compares ids exactly (case and whitespace count)', () => {
    expect(matching(records, { ids: ['A', ' a'] })).toEqual([]);
  });
  it('ANDs filters', () => {
    expect(matching(records, { order_ids: ['o1'], collections: ['optical'] })).toEqual(['a']);
    expect(matching(records, { ids: ['a'], item_ids: ['item-2'] })).toEqual([]);
  });
});

describe('query operators', () => {
  const records = [
    record({ id: 'n10', properties: { 'eo:cloud_cover': 10, platform: 'alpha', flag: true } }),
    record({ id: 'n20', properties: { 'eo:cloud_cover': 20, platform: 'beta', flag: false } }),
    record({ id: 'n30', properties: { 'eo:cloud_cover': 30, platform: 'Gamma' } }),
    record({ id: 'str', properties: { 'eo:cloud_cover': '20', platform: 7 } }),
    record({ id: 'nul', properties: { 'eo:cloud_cover': null, platform: null } }),
    record({ id: 'none' }),
    record({ id: 'arr', properties: { 'eo:cloud_cover': [20], platform: ['beta'] } }),
  ];
  const q = (key: string, ops: Record<string, unknown>) =>
    matching(records, { query: { [key]: ops } } as CatalogSearchRequestInput);

  it('gt, gte, lt, lte on numbers', () => {
    expect(q('eo:cloud_cover', { gt: 20 })).toEqual(['n30']);
    expect(q('eo:cloud_cover', { gte: 20 })).toEqual(['n20', 'n30']);
    expect(q('eo:cloud_cover', { lt: 20 })).toEqual(['n10']);
    expect(q('eo:cloud_cover', { lte: 20 })).toEqual(['n10', 'n20']);
    expect(q('eo:cloud_cover', { gt: 10, lt: 30 })).toEqual(['n20']);
  });

  it('eq and neq on numbers: type mismatches and missing values never match, even for neq', () => {
    expect(q('eo:cloud_cover', { eq: 20 })).toEqual(['n20']); // not the string "20"
    expect(q('eo:cloud_cover', { neq: 20 })).toEqual(['n10', 'n30']); // not str, nul, none, arr
    expect(q('eo:cloud_cover', { eq: '20' })).toEqual(['str']);
  });

  it('eq with a list is IN, neq with a list is NOT IN', () => {
    expect(q('eo:cloud_cover', { eq: [10, 30, 99] })).toEqual(['n10', 'n30']);
    expect(q('eo:cloud_cover', { neq: [10, 30] })).toEqual(['n20']);
    // IN with mixed types: each element matches values of its own type.
    expect(q('eo:cloud_cover', { eq: [10, '20'] })).toEqual(['n10', 'str']);
    // NOT IN is "<> every element": an element of another type never compares true.
    expect(q('eo:cloud_cover', { neq: [10, '20'] })).toEqual([]);
  });

  it('strings compare in code point order (case-sensitive)', () => {
    expect(q('platform', { gt: 'alpha' })).toEqual(['n20']); // 'Gamma' < 'alpha' (G < a)
    expect(q('platform', { lt: 'alpha' })).toEqual(['n30']);
    expect(q('platform', { gte: 'alpha', lte: 'beta' })).toEqual(['n10', 'n20']);
    expect(q('platform', { eq: 'beta' })).toEqual(['n20']);
    expect(q('platform', { neq: 'beta' })).toEqual(['n10', 'n30']); // not 7, null, missing
    // A number never compares with a string.
    expect(q('platform', { gt: 0 })).toEqual(['str']);
  });

  it('booleans compare by eq and neq only', () => {
    expect(q('flag', { eq: true })).toEqual(['n10']);
    expect(q('flag', { neq: true })).toEqual(['n20']);
    expect(q('flag', { eq: [true, false] })).toEqual(['n10', 'n20']);
    expect(CatalogSearchRequest.safeParse({ query: { flag: { gt: true } } }).success).toBe(false);
  });

  it('reads record fields and properties.<key> paths', () => {
    const rs = [
      record({
        id: 'x',
        fields: { area: 5, delivery_status: 'SUCCESSFUL' },
        properties: { gsd: 0.5 },
      }),
      record({ id: 'y', fields: { area: 50, delivery_status: 'FAILED' }, properties: { gsd: 3 } }),
    ];
    expect(matching(rs, { query: { area: { gt: 10 } } })).toEqual(['y']);
    expect(matching(rs, { query: { delivery_status: { eq: 'SUCCESSFUL' } } })).toEqual(['x']);
    expect(matching(rs, { query: { 'properties.gsd': { lt: 1 } } })).toEqual(['x']);
    expect(matching(rs, { query: { gsd: { lt: 1 } } })).toEqual(['x']);
    expect(matching(rs, { query: { item_id: { eq: 'item-y' } } })).toEqual(['y']);
    expect(matching(rs, { query: { collection: { eq: 'optical' } } })).toEqual(['x', 'y']);
  });

  it('does not read inherited members as properties', () => {
    const rs = [record({ id: 'x', properties: { gsd: 1 } })];
    expect(matching(rs, { query: { constructor: { neq: 'x' } } })).toEqual([]);
    expect(matching(rs, { query: { toString: { neq: 1 } } })).toEqual([]);
  });

  it('reads own properties named like Object.prototype members (as JSON.parse makes them)', () => {
    const props = JSON.parse('{"__proto__": 3, "constructor": "c"}') as Record<string, unknown>;
    const rs = [record({ id: 'own', properties: props }), record({ id: 'none', properties: {} })];
    expect(matching(rs, { query: { 'properties.__proto__': { eq: 3 } } })).toEqual(['own']);
    expect(matching(rs, { query: { constructor: { eq: 'c' } } })).toEqual(['own']);
    expect(matching(rs, { query: { constructor: { neq: 'd' } } })).toEqual(['own']);
  });

  it('compares timestamp paths as instants, whatever the offset', () => {
    const rs = [
      record({ id: 'early', properties: { created: '2024-05-17T09:00:00Z' } }),
      record({ id: 'late', properties: { created: '2024-05-17T11:30:00+02:00' } }), // 09:30Z
      record({ id: 'bad', properties: { created: 'yesterday' } }),
      record({ id: 'num', properties: { created: 1715936400 } }),
      record({ id: 'field', fields: { created_at: '2024-05-17T09:15:00.000Z' } }),
    ];
    expect(matching(rs, { query: { created: { gt: '2024-05-17T09:15:00Z' } } })).toEqual(['late']);
    // Text order would put "2024-05-17T11:30:00+02:00" after "2024-05-17T10:00:00Z".
    expect(matching(rs, { query: { created: { lt: '2024-05-17T10:00:00Z' } } })).toEqual([
      'early',
      'late',
    ]);
    expect(matching(rs, { query: { created: { eq: '2024-05-17T07:30:00-02:00' } } })).toEqual([
      'late',
    ]);
    expect(matching(rs, { query: { created: { eq: '2024-05-17T11:00:00+02:00' } } })).toEqual([
      'early',
    ]);
    expect(matching(rs, { query: { created: { neq: '2024-05-17T09:00:00Z' } } })).toEqual(['late']);
    expect(matching(rs, { query: { created_at: { gte: '2024-05-17T11:15:00+02:00' } } })).toEqual([
      'field',
    ]);
  });

  it('rejects non-timestamp values on timestamp paths in the schema and at compile time', () => {
    const r = CatalogSearchRequest.safeParse({ query: { datetime: { gt: 5 } } });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['query', 'datetime', 'gt']);
    expect(() =>
      compileCatalogSearch({ limit: 1, offset: 0, query: { datetime: { gt: 5 } } }),
    ).toThrow(RangeError);
  });
});

describe('datetime', () => {
  const at = (id: string, datetime: unknown) => record({ id, properties: { datetime } });
  const records = [
    at('d1', '2024-01-01T00:00:00Z'),
    at('d2', '2024-01-02T00:00:00.000001Z'),
    at('d3', '2024-01-03T00:00:00+00:00'),
    at('d4', '2024-01-04T01:00:00+01:00'), // 2024-01-04T00:00:00Z
    record({ id: 'none' }),
    at('null', null),
    at('bad', '2024-01-02'),
  ];
  const dt = (datetime: string) => matching(records, { datetime });

  it('a single instant means equality, at microsecond precision, across offsets', () => {
    expect(dt('2024-01-04T00:00:00Z')).toEqual(['d4']);
    expect(dt('2024-01-03T01:00:00+01:00')).toEqual(['d3']);
    expect(dt('2024-01-02T00:00:00Z')).toEqual([]);
    expect(dt('2024-01-02T00:00:00.000001Z')).toEqual(['d2']);
  });

  it('a closed interval includes both bounds', () => {
    expect(dt('2024-01-02T00:00:00.000001Z/2024-01-03T00:00:00Z')).toEqual(['d2', 'd3']);
    expect(dt('2024-01-02T00:00:00.000002Z/2024-01-03T00:00:00Z')).toEqual(['d3']);
  });

  it('open ends', () => {
    expect(dt('../2024-01-02T00:00:00Z')).toEqual(['d1']);
    expect(dt('2024-01-03T00:00:00Z/..')).toEqual(['d3', 'd4']);
  });

  it('records without a parseable datetime never match', () => {
    expect(dt('0001-01-01T00:00:00Z/..')).toEqual(['d1', 'd2', 'd3', 'd4']);
  });
});

describe('bbox', () => {
  /** A footprint split at the antimeridian (RFC 7946) between lon1 (east of 180) and lon2 (west of -180). */
  const straddling = (lon1: number, lon2: number, s: number, n: number): Geometry => ({
    type: 'MultiPolygon',
    coordinates: [rect(lon1, s, 180, n).coordinates, rect(-180, s, lon2, n).coordinates],
  });

  it('[160.6, -55.95, -170, -25.89]: both sides of the date line, touching, straddling, missing', () => {
    const records = [
      record({ id: 'east-inside', geometry: rect(170, -40, 175, -35) }),
      record({ id: 'west-inside', geometry: rect(-178, -40, -172, -35) }),
      record({ id: 'straddles', geometry: straddling(178, -179, -50, -45) }),
      record({ id: 'touches-w-edge', geometry: rect(150, -40, 160.6, -35) }),
      record({ id: 'touches-e-edge', geometry: rect(-170, -40, -160, -35) }),
      record({ id: 'touches-s-edge', geometry: rect(165, -60, 166, -55.95) }),
      record({ id: 'touches-ne-corner', geometry: rect(-170, -25.89, -169, -20) }),
      record({ id: 'crosses-e-edge', geometry: rect(-171, -30, -165, -28) }),
      record({ id: 'miss-west-of-w', geometry: rect(150, -40, 160.59, -35) }),
      record({ id: 'miss-east-of-e', geometry: rect(-169.99, -40, -160, -35) }),
      record({ id: 'miss-north', geometry: rect(170, -25.88, 175, -20) }),
      record({ id: 'miss-greenwich', geometry: rect(-5, -40, 5, -35) }),
      record({ id: 'null-geometry', geometry: null }),
    ];
    expect(matching(records, { bbox: [160.6, -55.95, -170, -25.89] })).toEqual([
      'crosses-e-edge',
      'east-inside',
      'straddles',
      'touches-e-edge',
      'touches-ne-corner',
      'touches-s-edge',
      'touches-w-edge',
      'west-inside',
    ]);
  });

  it('[177, 65, -177, 70]', () => {
    const records = [
      record({ id: 'east', geometry: rect(178, 66, 179, 67) }),
      record({ id: 'west-straddles-e-edge', geometry: rect(-178, 66, -176, 67) }),
      record({ id: 'straddles-180', geometry: straddling(179, -179, 68, 69) }),
      record({ id: 'touches-w', geometry: rect(176, 66, 177, 67) }),
      record({ id: 'touches-n', geometry: rect(178, 70, 179, 72) }),
      record({ id: 'point-on-180', geometry: { type: 'Point', coordinates: [180, 66] } }),
      record({ id: 'point-on-minus-180', geometry: { type: 'Point', coordinates: [-180, 66] } }),
      record({ id: 'miss-w', geometry: rect(170, 66, 176.99, 67) }),
      record({ id: 'miss-e', geometry: rect(-176.5, 66, -170, 67) }),
      record({ id: 'miss-n', geometry: rect(178, 70.0001, 179, 72) }),
      record({ id: 'miss-straddle-south', geometry: straddling(179, -179, 60, 64.999) }),
    ];
    expect(matching(records, { bbox: [177, 65, -177, 70] })).toEqual([
      'east',
      'point-on-180',
      'point-on-minus-180',
      'straddles-180',
      'touches-n',
      'touches-w',
      'west-straddles-e-edge',
    ]);
  });

  it('an ordinary box matches footprints touching its edge or corner', () => {
    const records = [
      record({ id: 'edge', geometry: rect(10, 0, 11, 1) }),
      record({ id: 'corner', geometry: rect(10, 10, 11, 11) }),
      record({
        id: 'line-on-edge',
        geometry: {
          type: 'LineString',
          coordinates: [
            [0, 10],
            [10, 10],
          ],
        },
      }),
      record({ id: 'gap', geometry: rect(10.000001, 0, 11, 1) }),
    ];
    expect(matching(records, { bbox: [0, 0, 10, 10] })).toEqual(['corner', 'edge', 'line-on-edge']);
  });

  it('tests the footprint itself, not its bounds', () => {
    // An L-shaped footprint whose bounds cover the box but whose shape does not reach it.
    const l: Polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [10, 0],
          [10, 1],
          [1, 1],
          [1, 10],
          [0, 10],
          [0, 0],
        ],
      ],
    };
    const records = [record({ id: 'L', geometry: l })];
    expect(matching(records, { bbox: [5, 5, 6, 6] })).toEqual([]);
    expect(matching(records, { bbox: [5, 0.5, 6, 6] })).toEqual(['L']);
  });

  it('a footprint with a hole around the box does not match', () => {
    const holed: Polygon = {
      type: 'Polygon',
      coordinates: [rect(0, 0, 10, 10).coordinates[0]!, rect(2, 2, 8, 8).coordinates[0]!.reverse()],
    };
    const records = [record({ id: 'holed', geometry: holed })];
    expect(matching(records, { bbox: [4, 4, 5, 5] })).toEqual([]);
    expect(matching(records, { bbox: [4, 4, 8, 5] })).toEqual(['holed']);
  });
});

describe('intersects', () => {
  const records = [
    record({ id: 'small', geometry: rect(4.5, 4.5, 5.5, 5.5) }),
    record({ id: 'ring', geometry: rect(0.5, 0.5, 1.5, 1.5) }),
    record({ id: 'point', geometry: { type: 'Point', coordinates: [30, 30] } }),
    record({
      id: 'line',
      geometry: {
        type: 'LineString',
        coordinates: [
          [20, 0],
          [20, 40],
        ],
      },
    }),
    record({ id: 'nothing', geometry: null }),
  ];
  const holed: Polygon = {
    type: 'Polygon',
    coordinates: [rect(0, 0, 10, 10).coordinates[0]!, rect(3, 3, 7, 7).coordinates[0]!.reverse()],
  };

  it('a polygon with a hole does not match a footprint inside the hole', () => {
    expect(matching(records, { intersects: holed })).toEqual(['ring']);
  });

  it('a GeometryCollection matches what any member intersects', () => {
    const gc: Geometry = {
      type: 'GeometryCollection',
      geometries: [
        holed,
        { type: 'Point', coordinates: [30, 30] },
        {
          type: 'LineString',
          coordinates: [
            [15, 10],
            [25, 10],
          ],
        },
      ],
    };
    expect(matching(records, { intersects: gc })).toEqual(['line', 'point', 'ring']);
  });

  it('a point query on a footprint vertex matches', () => {
    expect(matching(records, { intersects: { type: 'Point', coordinates: [5.5, 4.5] } })).toEqual([
      'small',
    ]);
  });

  it('records with null geometry match when there is no spatial filter', () => {
    expect(search(records, {}).total).toBe(5);
  });
});
