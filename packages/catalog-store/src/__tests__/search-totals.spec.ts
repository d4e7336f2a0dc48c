/**
 * A search's total is counted once while paging (search.ts keeps it) and counted again as soon
 * as the database changes: after a write on the same connection, after a commit on another
 * one, and after a write that was rolled back.
 */
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { makeCatalogSearch } from '../search';
import { makeCatalogDeleter, makeCatalogInserter, type CatalogRecordOut } from '../writes';
import { tempCatalog } from './temp-store';

const org = 'org-totals';
const store = tempCatalog('search-totals');
afterAll(() => store.close());

function record(n: number, cloud = 10): CatalogRecordOut {
  return {
    id: `rec-${String(n).padStart(4, '0')}`,
    task_id: null,
    org_id: org,
    delivery_status: 'SUCCESSFUL',
    details: {
      type: 'Feature',
      id: `item-${n}`,
      collection: 'c',
      geometry: { type: 'Point', coordinates: [10 + n / 100, 45] },
      assets: {},
      links: [],
      stac_extensions: [],
      properties: { datetime: '2024-03-01T00:00:00Z', 'eo:cloud_cover': cloud },
    },
  } as unknown as CatalogRecordOut;
}

const links = { orgId: org, orderId: null, orderItemId: null };
const insert = makeCatalogInserter(store.sqlite);
store.sqlite.transaction(() => {
  for (let n = 0; n < 30; n++) insert(record(n), links);
})();
const search = makeCatalogSearch(store.sqlite);
const page = (offset: number, extra: object = {}) =>
  search(org, { limit: 10, offset, ...extra } as never);

describe('a search total', () => {
  it('is the same on every page of an unchanged catalog', () => {
    expect([0, 10, 20].map((o) => page(o).total)).toEqual([30, 30, 30]);
    expect(page(0, { query: { 'eo:cloud_cover': { lt: 5 } } }).total).toBe(0);
    expect(page(0).total).toBe(30);
  });

  it('follows a write on the same connection, between two pages', () => {
    expect(page(0).total).toBe(30);
    insert(record(100), links);
    expect(page(10).total).toBe(31);
    makeCatalogDeleter(store.sqlite)(['rec-0100']);
    expect(page(20).total).toBe(30);
  });

  it('follows a commit on another connection', () => {
    expect(page(0).total).toBe(30);
    const other = new Database(store.sqlite.name);
    try {
      makeCatalogInserter(other)(record(200), links);
      expect(page(10).total).toBe(31);
      makeCatalogDeleter(other)(['rec-0200']);
      expect(page(20).total).toBe(30);
    } finally {
      other.close();
    }
  });

  it('follows a write rolled back: counted again, the same', () => {
    expect(page(0).total).toBe(30);
    const rollback = store.sqlite.transaction(() => {
      insert(record(300), links);
      expect(page(10).total).toBe(31); // inside the transaction, the row is there
      throw new Error('undo');
    });
    expect(rollback).toThrow('undo');
    expect(page(20).total).toBe(30);
  });
});
