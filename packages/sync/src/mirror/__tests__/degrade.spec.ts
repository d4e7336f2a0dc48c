/**
 * The mirror writers degrade per record: what a real service sends (other timestamp layouts,
 * numbers as strings, numeric ids, `details` null) is stored and findable by id; what cannot be
 * read for an indexed column is flagged not indexed; only a record without a usable id is
 * skipped, and every issue names the resource, the record and the field. Nothing throws.
 */
import { COMPACT_LAYOUT } from '@eo/catalog-store';
import path from 'node:path';
import { isoTimestamp } from '@eo/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { openMirrorDatabase } from '../../db/open';
import { tempDir } from '../../db/__tests__/temp';
import { makeOfflineCatalogSearch } from '../../search/catalog';
import { makeMirrorWriters } from '../writers';

const tmp = tempDir('degrade');
const db = openMirrorDatabase(path.join(tmp.dir, 'mirror.db'));
afterAll(() => {
  db.close();
  tmp.remove();
});
const w = makeMirrorWriters(db.sqlite);
const get = (sql: string, ...p: unknown[]) =>
  db.sqlite.prepare(sql).get(...p) as Record<string, unknown> | undefined;
const us = (s: string) => isoTimestamp.parse(s);

function catalogRecord(id: unknown, over: Record<string, unknown> = {}, props = {}) {
  return {
    id,
    task_id: null,
    details: {
      type: 'Feature',
      id: `item-${String(id)}`,
      collection: 'col-a',
      geometry: { type: 'Point', coordinates: [11, 44] },
      properties: { datetime: '2024-05-01T10:00:00Z', 'eo:cloud_cover': 10, ...props },
    },
    created_at: '2024-05-01T10:00:00Z',
    ...over,
  };
}

describe('catalog records a real service sends', () => {
  const layouts: Array<[string, unknown, string]> = [
    ['Go RFC3339Nano', '2024-05-01T10:00:00.123456789Z', '2024-05-01T10:00:00.123457Z'],
    ['a +05:30 offset', '2024-05-01T15:30:00+05:30', '2024-05-01T10:00:00Z'],
    ['no offset', '2024-05-01T10:00:00', '2024-05-01T10:00:00Z'],
    ['the space layout', '2024-05-01 10:00:00.5+00:00', '2024-05-01T10:00:00.5Z'],
    ['epoch seconds', 1714557600, '2024-05-01T10:00:00Z'],
  ];
  it.each(layouts)('created_at and datetime with %s are stored and indexed', (name, value, at) => {
    const id = `cat-${name}`;
    const issues = w.catalogs.write(
      [catalogRecord(id, { created_at: value }, { datetime: value })],
      'p1',
    );
    expect(issues).toEqual([]);
    expect(get('SELECT created_at_us, datetime_us FROM catalog_records WHERE id = ?', id)).toEqual({
      created_at_us: us(at),
      datetime_us: us(at),
    });
  });

  it('numbers as strings are coerced for the columns; the JSON stays as received', () => {
    const issues = w.catalogs.write(
      [catalogRecord('cat-strings', {}, { 'eo:cloud_cover': '12.5', gsd: '0.5' })],
      'p1',
    );
    expect(issues).toEqual([]);
    const row = get(
      `SELECT cloud_cover, gsd, ${COMPACT_LAYOUT.recordSql} AS record_json FROM catalog_records c WHERE c.id = ?`,
      'cat-strings',
    )!;
    expect(row).toMatchObject({ cloud_cover: 12.5, gsd: 0.5 });
    expect(JSON.parse(row.record_json as string).details.properties['eo:cloud_cover']).toBe('12.5');
  });

  it('a record with null or missing details is stored, findable by id, flagged only for what it sent', () => {
    const nullDetails = catalogRecord('cat-null-details', { details: null });
    const { details: _d, ...noDetails } = catalogRecord('cat-no-details');
    const issues = w.catalogs.write([nullDetails, { ...noDetails, id: 'cat-no-details' }], 'p1');
    expect(issues).toEqual([]);
    const search = makeOfflineCatalogSearch(db.sqlite);
    const found = search({ ids: ['cat-null-details', 'cat-no-details'] });
    expect(found.catalogs.map((c) => c.id).sort()).toEqual(['cat-no-details', 'cat-null-details']);
    expect(found.catalogs.find((c) => c.id === 'cat-null-details')!.details).toBeNull();
  });

  it('unreadable indexed fields: stored with NULL columns and no R*Tree entry, flagged with the field', () => {
    const issues = w.catalogs.write(
      [
        catalogRecord(
          'cat-odd',
          {
            created_at: 'last tuesday',
            details: {
              ...catalogRecord('x').details,
              geometry: { type: 'Point', coordinates: 'x' },
            },
          },
          {},
        ),
      ],
      'p1',
    );
    expect(issues.map((i) => [i.kind, i.recordId, i.field])).toEqual([
      ['not-indexed', 'cat-odd', 'details.geometry'],
      ['not-indexed', 'cat-odd', 'created_at'],
    ]);
    expect(issues[1]!.message).toBe('catalogs "cat-odd": created_at: cannot read "last tuesday"');
    const row = get(
      `SELECT c.created_at_us, r.seq AS rtree FROM catalog_records c
       LEFT JOIN catalog_rtree r ON r.seq = c.seq WHERE c.id = ?`,
      'cat-odd',
    );
    expect(row).toEqual({ created_at_us: 0, rtree: null });
    expect(
      get(
        "SELECT fields FROM mirror_unindexed WHERE resource = 'catalogs' AND record_id = ?",
        'cat-odd',
      ),
    ).toEqual({
      fields: '["details.geometry","created_at"]',
    });
    // Written again readable, the flag goes.
    expect(w.catalogs.write([catalogRecord('cat-odd')], 'p1')).toEqual([]);
    expect(get("SELECT 1 AS x FROM mirror_unindexed WHERE record_id = 'cat-odd'")).toBeUndefined();
  });

  it('a numeric id is stored as a string; a record without a usable id is skipped and reported', () => {
    const issues = w.catalogs.write(
      [catalogRecord(4242), catalogRecord(null), catalogRecord('')],
      'p1',
    );
    expect(get('SELECT id FROM catalog_records WHERE id = ?', '4242')).toEqual({ id: '4242' });
    expect(issues.map((i) => [i.kind, i.index, i.field, i.message])).toEqual([
      [
        'skipped',
        1,
        'id',
        'catalogs (no id): id: no usable id (received null); the record was not stored',
      ],
      [
        'skipped',
        2,
        'id',
        'catalogs (no id): id: no usable id (received ""); the record was not stored',
      ],
    ]);
  });
});

describe('the other mirror tables', () => {
  it('orders with numeric ids and odd timestamps are stored; an order without id is skipped', () => {
    const issues = w.orders.write(
      [
        {
          id: 77,
          status: 'ACTIVE',
          user_id: 5,
          created_at: '2024-05-01T15:30:00+05:30',
          updated_at: 1714557600123,
        },
        { id: 'ord-b', status: 'ACTIVE', created_at: 'soon' },
        { status: 'ACTIVE' },
        'not a record',
      ],
      'p1',
    );
    expect(
      get('SELECT id, user_id, created_at_us, updated_at_us FROM mirror_orders WHERE id = ?', '77'),
    ).toEqual({
      id: '77',
      user_id: '5',
      created_at_us: us('2024-05-01T10:00:00Z'),
      updated_at_us: us('2024-05-01T10:00:00.123Z'),
    });
    expect(get('SELECT created_at_us FROM mirror_orders WHERE id = ?', 'ord-b')).toEqual({
      created_at_us: null,
    });
    expect(issues.map((i) => i.message)).toEqual([
      'orders "ord-b": created_at: cannot read "soon" as a timestamp',
      'orders (no id): id: no usable id (received nothing); the record was not stored',
      'orders (no id): id: not an object (received "not a record"); the record was not stored',
    ]);
    expect(get("SELECT fields FROM mirror_unindexed WHERE resource = 'orders'")).toEqual({
      fields: '["created_at"]',
    });
  });

  it('order items with numeric ids link their tasks; AOIs, assets and indices take numeric ids', () => {
    expect(
      w.orderItems.write(
        [
          {
            id: 9,
            order_id: 77,
            name: 'n',
            type: 'ARCHIVE',
            status: 'FULFILLED',
            created_at: '2024-05-01 10:00:00',
            tasks: [{ id: 31 }],
          },
        ],
        'p1',
      ),
    ).toEqual([]);
    expect(get('SELECT order_item_id, order_id FROM mirror_tasks WHERE task_id = ?', '31')).toEqual(
      {
        order_item_id: '9',
        order_id: '77',
      },
    );
    expect(
      w.aois.write(
        [
          {
            aoi_id: 12,
            name: 'a',
            status: 'ACTIVE',
            created_at: '2022-11-14T12:55:49.125928+00:00',
          },
        ],
        'p1',
      ),
    ).toEqual([]);
    expect(
      w.assets.write(
        [{ id: 13, aoi_id: 12, created_at: '2022-11-14 12:55:49.125928+00:00' }],
        'p1',
      ),
    ).toEqual([]);
    expect(w.indices.write([{ id: 14, name: 'ndvi', satellite_id: 3 }], 'p1')).toEqual([]);
    expect(get('SELECT aoi_id FROM mirror_assets WHERE id = ?', '13')).toEqual({ aoi_id: '12' });
    expect(get('SELECT satellite_id FROM mirror_indices WHERE id = ?', '14')).toEqual({
      satellite_id: '3',
    });
  });

  it('a sweep takes the flags of the rows it removes', () => {
    w.orders.write([{ id: 'ord-c', status: 'ACTIVE', created_at: 'never' }], 'p2');
    w.orders.sweep('p2');
    expect(
      db.sqlite
        .prepare("SELECT record_id FROM mirror_unindexed WHERE resource = 'orders'")
        .pluck()
        .all(),
    ).toEqual(['ord-c']);
  });
});
