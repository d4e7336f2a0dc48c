/** Local filters over mirror rows written by the mirror's own writers, and their query plans. */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openMirrorDatabase } from '../../db/open';
import { tempDir } from '../../db/__tests__/temp';
import { makeMirrorWriters } from '../../mirror/writers';
import {
  aoisQuery,
  assetsQuery,
  filterAois,
  filterAssets,
  filterIndices,
  filterOrderItems,
  filterOrders,
  indicesQuery,
  orderItemsQuery,
  ordersQuery,
  type FilterQuery,
} from '../local-filters';

const tmp = tempDir('local-filters');
const db = openMirrorDatabase(path.join(tmp.dir, 'mirror.db'));
afterAll(() => {
  db.close();
  tmp.remove();
});
const w = makeMirrorWriters(db.sqlite);
const iso = (day: number) => `2024-05-${String(day).padStart(2, '0')}T09:30:00.000000Z`;
const micro = (day: number) => `2024-05-${String(day).padStart(2, '0')} 09:30:00.000000+00:00`;
const us = (day: number) => Date.UTC(2024, 4, day, 9, 30) * 1000;

w.orders.write(
  [
    { id: 'o1', status: 'PAID', user_id: 'u1', created_at: iso(1), order_items: [] },
    { id: 'o2', status: 'CREATED', user_id: 'u2', created_at: iso(5), order_items: [] },
    { id: 'o3', status: 'PAID', user_id: 'u1', created_at: iso(9), order_items: [] },
  ],
  'p1',
);
w.orderItems.write(
  [
    {
      id: 'i1',
      order_id: 'o1',
      name: 'Vineyard North',
      project_id: 'prA',
      type: 'TASKING',
      status: 'ACTIVE',
      created_at: iso(1),
      area: 25,
      tasks: [{ id: 't1' }],
    },
    {
      id: 'i2',
      order_id: 'o2',
      name: 'Harbour survey',
      project_id: 'prB',
      type: 'ARCHIVE',
      status: 'COMPLETED',
      created_at: iso(5),
      area: 3.5,
    },
    {
      id: 'i3',
      order_id: 'o3',
      name: 'north field',
      project_id: 'prA',
      type: 'ARCHIVE',
      status: 'ACTIVE',
      created_at: iso(9),
    },
  ],
  'p1',
);
w.aois.write(
  [
    {
      aoi_id: 'a1',
      name: 'Olive groves',
      project_id: 'prA',
      status: 'ACTIVE',
      created_at: micro(2),
    },
    {
      aoi_id: 'a2',
      name: 'Groves east',
      project_id: 'prB',
      status: 'PENDING',
      created_at: micro(6),
    },
  ],
  'p1',
);
w.assets.write(
  [
    { id: 's2', aoi_id: 'a1', asset_type: 'scene', created_at: micro(3) },
    { id: 's1', aoi_id: 'a1', asset_type: 'scene', created_at: micro(2) },
    { id: 's3', aoi_id: 'a2', asset_type: 'scene', created_at: micro(6) },
  ],
  'p1',
);
w.indices.write(
  [
    { id: 'x2', name: 'ndwi', type: 'preset', satellite_id: 'sat-a' },
    { id: 'x1', name: 'NDVI', type: 'preset', satellite_id: 'sat-a' },
    { id: 'x3', name: 'Red edge', type: 'custom', satellite_id: 'sat-b' },
  ],
  'p1',
);
const idsOf = (rows: Array<Record<string, unknown>>, key = 'id') => rows.map((r) => r[key]);

describe('local filters', () => {
  it('orders by status, user and creation time, newest first', () => {
    expect(idsOf(filterOrders(db.sqlite))).toEqual(['o3', 'o2', 'o1']);
    expect(idsOf(filterOrders(db.sqlite, { status: ['PAID'] }))).toEqual(['o3', 'o1']);
    expect(idsOf(filterOrders(db.sqlite, { userId: 'u2' }))).toEqual(['o2']);
    expect(idsOf(filterOrders(db.sqlite, { created: { fromUs: us(2), toUs: us(9) } }))).toEqual([
      'o3',
      'o2',
    ]);
  });

  it('order items by status, type, project, order and name text (case-insensitive)', () => {
    expect(idsOf(filterOrderItems(db.sqlite, { status: ['ACTIVE'], type: ['ARCHIVE'] }))).toEqual([
      'i3',
    ]);
    expect(idsOf(filterOrderItems(db.sqlite, { projectId: 'prA' }))).toEqual(['i3', 'i1']);
    expect(idsOf(filterOrderItems(db.sqlite, { orderId: 'o2' }))).toEqual(['i2']);
    expect(idsOf(filterOrderItems(db.sqlite, { text: 'NORTH' }))).toEqual(['i3', 'i1']);
    expect(idsOf(filterOrderItems(db.sqlite, { text: 'nowhere' }))).toEqual([]);
  });

  it('order items of several orders, and by area in km² (items without an area never match)', () => {
    expect(idsOf(filterOrderItems(db.sqlite, { orderIds: ['o1', 'o2', 'nope'] }))).toEqual([
      'i2',
      'i1',
    ]);
    expect(idsOf(filterOrderItems(db.sqlite, { orderIds: [] }))).toEqual([]);
    expect(idsOf(filterOrderItems(db.sqlite, { areaKm2: { min: 3.5 } }))).toEqual(['i2', 'i1']);
    expect(idsOf(filterOrderItems(db.sqlite, { areaKm2: { min: 4, max: 25 } }))).toEqual(['i1']);
    expect(idsOf(filterOrderItems(db.sqlite, { areaKm2: { max: 3.5 } }))).toEqual(['i2']);
  });

  it('assets of one AOI, oldest first; indices by type and satellite, by name', () => {
    expect(idsOf(filterAssets(db.sqlite, { aoiId: 'a1' }))).toEqual(['s1', 's2']);
    expect(idsOf(filterAssets(db.sqlite, { aoiId: 'none' }))).toEqual([]);
    expect(idsOf(filterIndices(db.sqlite))).toEqual(['x1', 'x2', 'x3']);
    expect(idsOf(filterIndices(db.sqlite, { type: 'preset' }))).toEqual(['x1', 'x2']);
    expect(idsOf(filterIndices(db.sqlite, { satelliteId: 'sat-b' }))).toEqual(['x3']);
    expect(idsOf(filterIndices(db.sqlite, { type: 'custom', satelliteId: 'sat-a' }))).toEqual([]);
  });

  it('AOIs by status, project, dates (micro layout) and name text', () => {
    expect(idsOf(filterAois(db.sqlite, { text: 'groves' }), 'aoi_id')).toEqual(['a2', 'a1']);
    expect(idsOf(filterAois(db.sqlite, { status: ['PENDING'] }), 'aoi_id')).toEqual(['a2']);
    expect(idsOf(filterAois(db.sqlite, { created: { toUs: us(3) } }), 'aoi_id')).toEqual(['a1']);
    expect(idsOf(filterAois(db.sqlite, { projectId: 'prB' }), 'aoi_id')).toEqual(['a2']);
  });

  it('a sweep removes the rows an older pass saw, and their tasks', () => {
    w.orderItems.write(
      [{ id: 'i9', order_id: 'o9', type: 'ARCHIVE', status: 'ACTIVE', tasks: [{ id: 't9' }] }],
      'p0',
    );
    expect(w.orderItems.sweep('p1')).toBe(1);
    const tasks = db.sqlite.prepare('SELECT task_id FROM mirror_tasks ORDER BY task_id').all();
    expect(tasks).toEqual([{ task_id: 't1' }]);
  });
});

function plan(q: FilterQuery): string {
  return (
    db.sqlite.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).all(q.params) as Array<{ detail: string }>
  )
    .map((r) => r.detail)
    .join('\n');
}

describe('query plans of hot local reads', () => {
  it('order items of one order use the order index', () => {
    expect(plan(orderItemsQuery({ orderId: 'o1' }))).toMatch(
      /USING INDEX mirror_order_items_order/,
    );
  });
  it('order items of several orders use the order index', () => {
    expect(plan(orderItemsQuery({ orderIds: ['o1', 'o2'] }))).toMatch(
      /USING INDEX mirror_order_items_order/,
    );
  });
  it('order items by status use the (status, type) index', () => {
    expect(plan(orderItemsQuery({ status: ['ACTIVE'] }))).toMatch(
      /USING INDEX mirror_order_items_status_type/,
    );
  });
  it('orders by status use the (status, created) index', () => {
    expect(plan(ordersQuery({ status: ['PAID'] }))).toMatch(
      /USING INDEX mirror_orders_status_created/,
    );
  });
  it('AOIs of a project use the project index', () => {
    expect(plan(aoisQuery({ projectId: 'prA' }))).toMatch(/USING INDEX mirror_aois_project/);
  });
  it('assets of an AOI use the (aoi, created) index', () => {
    expect(plan(assetsQuery({ aoiId: 'a1' }))).toMatch(/USING INDEX mirror_assets_aoi/);
  });
  it('indices by type use the type index', () => {
    expect(plan(indicesQuery({ type: 'preset' }))).toMatch(/USING INDEX mirror_indices_type/);
  });
});
