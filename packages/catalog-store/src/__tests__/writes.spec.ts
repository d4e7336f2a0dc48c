/**
 * The writers against a real SQLite file: what lands in the indexed columns and the R*Tree under
 * each reading (strict for the service's own records, lenient for what a real service sends),
 * and that upserts and deletes keep `catalog_rtree` in step with `catalog_records`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CatalogRecordIdError,
  makeCatalogDeleter,
  makeCatalogInserter,
  makeCatalogUpserter,
  type CatalogLinks,
  type CatalogRecordOut,
} from '../writes';
import type { SqlRow } from '../sql-row';
import type { catalogRecords } from '../table';
import { tempCatalog, type TempCatalog } from './temp-store';

const LINKS: CatalogLinks = { orgId: 'org-1', orderId: 'ord-1', orderItemId: 'oi-1' };
const JAN_1_2024_US = Date.parse('2024-01-01T00:00:00Z') * 1000;

function record(id: unknown, properties: Record<string, unknown>, extra: object = {}) {
  return {
    id,
    task_id: 'task-1',
    org_id: 'org-1',
    delivery_status: 'SUCCESSFUL',
    created_at: '2024-01-01T00:00:00Z',
    details: {
      type: 'Feature',
      id: 'item-1',
      collection: 'sentinel-2',
      geometry: { type: 'Point', coordinates: [10, 20] },
      assets: {},
      links: [],
      stac_extensions: [],
      properties: { datetime: '2024-01-01T00:00:00Z', ...properties },
    },
    ...extra,
  } as unknown as CatalogRecordOut;
}

type Row = SqlRow<typeof catalogRecords>;

let store: TempCatalog;
beforeEach(() => {
  store = tempCatalog('writes');
});
afterEach(() => store.close());

const row = (id: string) =>
  store.sqlite.prepare('SELECT * FROM catalog_records WHERE id = ?').get(id) as Row | undefined;
const boxes = () =>
  store.sqlite
    .prepare('SELECT seq, min_lon, max_lon, min_lat, max_lat FROM catalog_rtree ORDER BY seq')
    .all() as Array<{ seq: number; min_lon: number; max_lon: number; min_lat: number }>;

describe('catalog writers', () => {
  it('strict insert: indexed columns, the footprint box and the JSON as sent', () => {
    const r = record('rec-1', { 'eo:cloud_cover': 12.5, gsd: 10 });
    expect(makeCatalogInserter(store.sqlite)(r, LINKS)).toEqual([]);
    const got = row('rec-1')!;
    expect(got).toMatchObject({
      order_id: 'ord-1',
      item_id: 'item-1',
      collection: 'sentinel-2',
      datetime_us: JAN_1_2024_US,
      cloud_cover: 12.5,
      gsd: 10,
      min_lon: 10,
      created_at_us: JAN_1_2024_US,
    });
    expect(got.record_json).toBe(JSON.stringify(r));
    expect(boxes()).toEqual([{ seq: got.seq, min_lon: 10, max_lon: 10, min_lat: 20, max_lat: 20 }]);
  });

  it('a numeric string is no number when strict, and is one when lenient', () => {
    const r = record('rec-1', { 'eo:cloud_cover': '12.5' });
    expect(makeCatalogInserter(store.sqlite, 'strict')(r, LINKS)).toEqual([
      'details.properties.eo:cloud_cover',
    ]);
    expect(row('rec-1')!.cloud_cover).toBeNull();
    const lenient = makeCatalogUpserter(store.sqlite, 'lenient');
    expect(lenient(r, LINKS)).toEqual([]);
    expect(row('rec-1')!.cloud_cover).toBe(12.5);
    // lenient ids: a numeric id is its decimal string
    lenient(record(42, {}), LINKS);
    expect(row('42')).toBeDefined();
  });

  it('an unreadable timestamp throws when strict; lenient stores the epoch and flags it', () => {
    const r = record('rec-1', {}, { created_at: 'yesterday' });
    expect(() => makeCatalogInserter(store.sqlite)(r, LINKS)).toThrow();
    expect(row('rec-1')).toBeUndefined();
    expect(makeCatalogInserter(store.sqlite, 'lenient')(r, LINKS)).toEqual(['created_at']);
    expect(row('rec-1')!.created_at_us).toBe(0);
  });

  it('a record without a usable id is refused before anything is written', () => {
    for (const id of [null, '', { x: 1 }]) {
      expect(() => makeCatalogUpserter(store.sqlite, 'lenient')(record(id, {}), LINKS)).toThrow(
        CatalogRecordIdError,
      );
    }
    expect(store.sqlite.prepare('SELECT count(*) AS n FROM catalog_records').get()).toEqual({
      n: 0,
    });
    expect(boxes()).toEqual([]);
  });

  it('upsert keeps the row (seq) and rewrites its box; a record that loses its footprint loses its box', () => {
    const upsert = makeCatalogUpserter(store.sqlite);
    upsert(record('rec-1', {}), LINKS);
    const seq = row('rec-1')!.seq;
    const moved = record('rec-1', { gsd: 3 });
    (moved.details as { geometry: unknown }).geometry = {
      type: 'Point',
      coordinates: [-30, 5],
    };
    upsert(moved, { ...LINKS, orderId: null });
    expect(row('rec-1')).toMatchObject({ seq, gsd: 3, min_lon: -30, order_id: null });
    expect(boxes()).toEqual([{ seq, min_lon: -30, max_lon: -30, min_lat: 5, max_lat: 5 }]);
    const bare = record('rec-1', {});
    (bare.details as { geometry: unknown }).geometry = null;
    expect(upsert(bare, LINKS)).toEqual([]);
    expect(row('rec-1')).toMatchObject({ seq, min_lon: null });
    expect(boxes()).toEqual([]);
  });

  it('delete removes the rows and their boxes and counts them; unknown ids and [] remove nothing', () => {
    const insert = makeCatalogInserter(store.sqlite);
    for (const id of ['a', 'b', 'c']) insert(record(id, {}), LINKS);
    const drop = makeCatalogDeleter(store.sqlite);
    expect(drop([])).toBe(0);
    expect(drop(['a', 'c', 'missing'])).toBe(2);
    expect(drop(['a'])).toBe(0);
    expect(row('b')).toBeDefined();
    expect(boxes().map((b) => b.seq)).toEqual([row('b')!.seq]);
  });
});
