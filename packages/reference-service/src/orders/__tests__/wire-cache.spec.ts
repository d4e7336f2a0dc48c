import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../testing/harness';
import { ByteLru } from '../wire-cache';
import { archiveItem, taskingItem } from './fixtures';
import { createOrder, createOrdersApp, type Json } from './helpers';

describe('ByteLru', () => {
  const b = (n: number, fill = 1) => Buffer.alloc(n, fill);

  it('evicts least recently used entries beyond its byte budget', () => {
    const lru = new ByteLru(10);
    lru.set('a', b(4));
    lru.set('b', b(4));
    expect(lru.get('a')).toEqual(b(4)); // a is now the most recent
    lru.set('c', b(4)); // 12 bytes: b goes
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBeDefined();
    expect(lru.get('c')).toBeDefined();
    expect(lru.bytes).toBe(8);
  });

  it('replaces a key and refuses values larger than the budget', () => {
    const lru = new ByteLru(10);
    lru.set('a', b(4, 1));
    lru.set('a', b(6, 2));
    expect(lru.get('a')).toEqual(b(6, 2));
    expect(lru.bytes).toBe(6);
    lru.set('huge', b(11));
    expect(lru.get('huge')).toBeUndefined();
    expect(lru.bytes).toBe(6);
  });
});

describe('GET /v0/orders never serves a stale page', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createOrdersApp();
  });
  afterAll(async () => t.close());
  const list = async (url = '/v0/orders') => (await t.call({ method: 'GET', url })).json() as Json;

  it('shows every state change, new order and filter', async () => {
    const first = (await createOrder(t, [archiveItem()])).json();
    expect((await list()).orders.map((o: Json) => o.status)).toEqual(['UNPAID']);
    expect((await list()).orders.map((o: Json) => o.status)).toEqual(['UNPAID']); // cached
    t.app.ctx.worker.runDue({ ignoreDueTime: true, limit: 1 });
    expect((await list()).orders[0].status).toBe('PAYMENT_IN_PROGRESS');
    t.app.ctx.worker.drain();
    const done = await list();
    expect(done.orders[0].status).toBe('PAID');
    expect(done.orders[0].order_items[0].status).toBe('COMPLETED');
    await createOrder(t, [taskingItem()]);
    const two = await list();
    expect(two.pagination.total).toBe(2);
    expect(two.orders[0].id).toBe(first.id);
    expect((await list('/v0/orders?limit=1&offset=1')).orders).toHaveLength(1);
    expect((await list('/v0/orders?user_id=usr-demo-field')).orders).toEqual([]);
  });

  it('shows a change another connection writes the way the service does', async () => {
    const before = await list();
    const id = before.orders[0].id;
    const other = new Database(t.app.ctx.config.dbFile);
    try {
      const wire = { ...before.orders[0], total_amount: 12345 };
      other.transaction(() => {
        other
          .prepare('UPDATE orders SET wire_json = ?, wire_version = wire_version + 1 WHERE id = ?')
          .run(Buffer.from(JSON.stringify(wire)), id);
        other
          .prepare("UPDATE order_list_versions SET version = version + 1 WHERE org_id = 'org-demo'")
          .run();
      })();
    } finally {
      other.close();
    }
    expect((await list()).orders[0].total_amount).toBe(12345);
  });
});
