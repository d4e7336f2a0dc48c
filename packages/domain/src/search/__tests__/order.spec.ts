import { describe, expect, it } from 'vitest';
import { compileCatalogSearch, runCatalogSearch, type SearchableRecord } from '../evaluate';
import { CatalogSearchRequest, type CatalogSearchRequestInput } from '../request';
import { ids, record } from './records';

function order(records: SearchableRecord[], input: CatalogSearchRequestInput = {}): string[] {
  return ids(runCatalogSearch(records, CatalogSearchRequest.parse(input)));
}

describe('default order', () => {
  it('is datetime descending, missing or unparseable last, ties by id ascending', () => {
    const records = [
      record({ id: 'b', properties: { datetime: '2024-01-01T00:00:00Z' } }),
      record({ id: 'none2' }),
      record({ id: 'a', properties: { datetime: '2024-01-01T01:00:00+01:00' } }), // same instant as b
      record({ id: 'c', properties: { datetime: '2024-03-01T00:00:00Z' } }),
      record({ id: 'bad', properties: { datetime: 'soon' } }),
      record({ id: 'none1' }),
    ];
    expect(order(records)).toEqual(['c', 'a', 'b', 'bad', 'none1', 'none2']);
    // An empty sort_by is the same as none.
    expect(order(records, { sort_by: [] })).toEqual(['c', 'a', 'b', 'bad', 'none1', 'none2']);
  });
});

describe('sort_by', () => {
  const records = [
    record({ id: 'r3', properties: { 'eo:cloud_cover': 5, platform: 'b' } }),
    record({ id: 'r1', properties: { 'eo:cloud_cover': 5, platform: 'a' } }),
    record({ id: 'r5' }),
    record({ id: 'r2', properties: { 'eo:cloud_cover': 1, platform: 'a' } }),
    record({ id: 'r4', properties: { 'eo:cloud_cover': null, platform: 'c' } }),
  ];

  it('asc (the default direction) with ties broken by id and missing last', () => {
    expect(order(records, { sort_by: [{ field: 'eo:cloud_cover' }] })).toEqual([
      'r2',
      'r1',
      'r3',
      'r4',
      'r5',
    ]);
  });

  it('desc keeps missing values last and ties by id ascending', () => {
    expect(order(records, { sort_by: [{ field: 'eo:cloud_cover', direction: 'desc' }] })).toEqual([
      'r1',
      'r3',
      'r2',
      'r4',
      'r5',
    ]);
  });

  it('uses the keys in turn', () => {
    expect(
      order(records, {
        sort_by: [
          { field: 'properties.platform', direction: 'asc' },
          { field: 'eo:cloud_cover', direction: 'desc' },
        ],
      }),
    ).toEqual(['r1', 'r2', 'r3', 'r4', 'r5']);
    expect(
      order(records, {
        sort_by: [
          { field: 'eo:cloud_cover', direction: 'asc' },
          { field: 'platform', direction: 'desc' },
        ],
      }),
    ).toEqual(['r2', 'r3', 'r1', 'r4', 'r5']);
  });

  it('orders mixed types numbers < strings < false < true, reversed by desc, missing last', () => {
    const mixed = [
      record({ id: 't', properties: { v: true } }),
      record({ id: 's', properties: { v: 'x' } }),
      record({ id: 'm', properties: { v: [1] } }),
      record({ id: 'f', properties: { v: false } }),
      record({ id: 'n', properties: { v: 100 } }),
      record({ id: 'n2', properties: { v: -1 } }),
    ];
    expect(order(mixed, { sort_by: [{ field: 'v' }] })).toEqual(['n2', 'n', 's', 'f', 't', 'm']);
    expect(order(mixed, { sort_by: [{ field: 'v', direction: 'desc' }] })).toEqual([
      't',
      'f',
      's',
      'n',
      'n2',
      'm',
    ]);
  });

  it('orders timestamps as instants, not as text', () => {
    const rs = [
      record({ id: 'x', properties: { updated: '2024-01-01T10:00:00+02:00' } }), // 08:00Z
      record({ id: 'y', properties: { updated: '2024-01-01T09:00:00Z' } }),
      record({ id: 'z', fields: { created_at: '2024-01-01T00:00:00Z' } }),
    ];
    expect(order(rs, { sort_by: [{ field: 'updated' }] })).toEqual(['x', 'y', 'z']);
    expect(order(rs, { sort_by: [{ field: 'created_at', direction: 'desc' }] })).toEqual([
      'z',
      'x',
      'y',
    ]);
  });

  it('orders strings by code point (UTF-8 bytes), also for characters above U+FFFF', () => {
    const rs = [
      record({ id: 'emoji', properties: { name: '\u{1F600}' } }), // surrogate pair D83D DE00
      record({ id: 'private', properties: { name: '\uFF21' } }), // fullwidth A, U+FF21
      record({ id: 'upper', properties: { name: 'Z' } }),
      record({ id: 'lower', properties: { name: 'a' } }),
    ];
    // JavaScript's < would put the emoji (0xD83D) before U+FF21.
    expect(order(rs, { sort_by: [{ field: 'name' }] })).toEqual([
      'upper',
      'lower',
      'private',
      'emoji',
    ]);
  });

  it('sorts by record id and item id', () => {
    const rs = [record({ id: 'b', itemId: 'x1' }), record({ id: 'a', itemId: 'x2' })];
    expect(order(rs, { sort_by: [{ field: 'id', direction: 'desc' }] })).toEqual(['b', 'a']);
    expect(order(rs, { sort_by: [{ field: 'item_id' }] })).toEqual(['b', 'a']);
  });

  it('keeps the input order of records with equal ids (stable)', () => {
    const one = record({ id: 'same', properties: { k: 1 } });
    const two = record({ id: 'same', properties: { k: 2 } });
    const r1 = runCatalogSearch(
      [one, two],
      CatalogSearchRequest.parse({ sort_by: [{ field: 'z' }] }),
    );
    const r2 = runCatalogSearch(
      [two, one],
      CatalogSearchRequest.parse({ sort_by: [{ field: 'z' }] }),
    );
    expect(r1.catalogs).toEqual([one.record, two.record]);
    expect(r2.catalogs).toEqual([two.record, one.record]);
  });

  it('compare() agrees with the order runCatalogSearch returns', () => {
    const req = CatalogSearchRequest.parse({
      sort_by: [{ field: 'eo:cloud_cover', direction: 'desc' }],
    });
    const { compare } = compileCatalogSearch(req);
    const sorted = [...records].sort(compare).map((r) => r.record.id);
    expect(sorted).toEqual(ids(runCatalogSearch(records, req)));
    expect(compare(records[0]!, records[0]!)).toBe(0);
  });
});

describe('paging', () => {
  const records = Array.from({ length: 25 }, (_, i) =>
    record({ id: `r${String(i).padStart(2, '0')}`, properties: { n: i % 3 } }),
  );

  it('slices the sorted matches; total counts every match', () => {
    const req: CatalogSearchRequestInput = { query: { n: { eq: 1 } }, sort_by: [{ field: 'id' }] };
    const all = order(records, req);
    expect(all).toEqual(['r01', 'r04', 'r07', 'r10', 'r13', 'r16', 'r19', 'r22']);
    const page = runCatalogSearch(
      records,
      CatalogSearchRequest.parse({ ...req, offset: 2, limit: 3 }),
    );
    expect(ids(page)).toEqual(['r07', 'r10', 'r13']);
    expect(page.total).toBe(8);
  });

  it('an offset past the end gives an empty page and the same total', () => {
    const page = runCatalogSearch(records, CatalogSearchRequest.parse({ offset: 100 }));
    expect(page).toEqual({ catalogs: [], total: 25 });
  });

  it('the default limit is 100', () => {
    const many = Array.from({ length: 150 }, (_, i) => record({ id: `m${i}` }));
    const page = runCatalogSearch(many, CatalogSearchRequest.parse({}));
    expect(page.catalogs).toHaveLength(100);
    expect(page.total).toBe(150);
  });

  it('accepts any iterable', () => {
    function* gen() {
      yield record({ id: 'g1' });
      yield record({ id: 'g2' });
    }
    expect(runCatalogSearch(gen(), CatalogSearchRequest.parse({ limit: 1 }))).toMatchObject({
      total: 2,
    });
  });
});
