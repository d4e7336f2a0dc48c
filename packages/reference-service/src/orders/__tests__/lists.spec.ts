import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../orgs/repository';
import { DEMO, OTHER, type TestApp } from '../../testing/harness';
import {
  FIELD,
  SCENES,
  archiveItem,
  featureCollection,
  recurringItem,
  taskingItem,
} from './fixtures';
import { createOrder, createOrdersApp, type Json } from './helpers';

let t: TestApp;
let fieldKey: string;
/** Orders created in beforeAll, oldest first. */
const orders: Json[] = [];
let otherOrder: Json;

const get = async (url: string, key?: string) => {
  const res = await t.call({ method: 'GET', url, ...(key ? { key } : {}) });
  return { status: res.statusCode, body: res.json() as Json };
};
const ids = (list: Json[]) => list.map((x) => x.id);

beforeAll(async () => {
  t = await createOrdersApp();
  fieldKey = createApiKey(
    t.app.ctx.sqlite,
    { orgId: DEMO.orgId, userId: DEMO.users[1].id },
    Date.now(),
  );
  const big = featureCollection([11, 44, 12, 45]); // ~8,800 km²
  const bodies: Array<[unknown[], string | undefined]> = [
    [[taskingItem()], undefined],
    [[archiveItem(), taskingItem({ project_id: DEMO.projects[1].id, geometry: big })], undefined],
    [[recurringItem({ cloud_cover: 40 })], fieldKey],
    [
      [
        archiveItem({
          item_ids: [SCENES.wide.id, SCENES.west.id],
          name: 'Two scenes [fail-task:1]',
        }),
      ],
      undefined,
    ],
    [[taskingItem({ project_id: DEMO.projects[1].id })], fieldKey],
  ];
  for (const [items, key] of bodies) {
    const res = await createOrder(t, items, key ? { key } : {});
    expect(res.statusCode).toBe(201);
    orders.push(res.json());
  }
  otherOrder = (
    await createOrder(t, [archiveItem({ project_id: OTHER.projectId })], { key: t.otherKey })
  ).json();
  t.app.ctx.worker.drain();
});
afterAll(async () => t.close());

describe('GET /v0/orders', () => {
  it('lists the organisation orders oldest first with their items (default limit 10)', async () => {
    const { status, body } = await get('/v0/orders');
    expect(status).toBe(200);
    expect(body.pagination).toEqual({ limit: 10, offset: 0, total: 5 });
    expect(ids(body.orders)).toEqual(ids(orders));
    expect(body.orders.map((o: Json) => o.order_items.length)).toEqual([1, 2, 1, 1, 1]);
    expect(body.orders[1].order_items.map((i: Json) => i.type)).toEqual(['ARCHIVE', 'TASKING']);
    expect(body.orders.every((o: Json) => o.status === 'PAID')).toBe(true);
    // Items inside orders carry validation_errors but not tasks (those are in /v0/order-items).
    expect(body.orders[0].order_items[0]).toHaveProperty('validation_errors');
    expect(body.orders[0].order_items[0]).not.toHaveProperty('tasks');
  });

  it('embeds items exactly as /v0/order-items shows them (minus tasks), after every state change', async () => {
    const listed = (await get('/v0/orders?limit=100')).body.orders.flatMap(
      (o: Json) => o.order_items,
    );
    const fresh = (await get('/v0/order-items?limit=100')).body.order_items.map(
      ({ tasks: _tasks, ...rest }: Json) => rest,
    );
    expect(listed).toEqual(fresh);
    expect(listed.map((i: Json) => i.status)).toContain('PARTIALLY_COMPLETED');
  });

  it('filters by user_id', async () => {
    const { body } = await get(`/v0/orders?user_id=${DEMO.users[1].id}`);
    expect(ids(body.orders)).toEqual([orders[2].id, orders[4].id]);
    expect(body.pagination.total).toBe(2);
    expect((await get('/v0/orders?user_id=usr-nobody')).body.pagination.total).toBe(0);
  });

  it('pages with limit and offset, past the end too', async () => {
    const page = (await get('/v0/orders?limit=2&offset=2')).body;
    expect(ids(page.orders)).toEqual([orders[2].id, orders[3].id]);
    expect(page.pagination).toEqual({ limit: 2, offset: 2, total: 5 });
    const last = (await get('/v0/orders?limit=2&offset=4')).body;
    expect(ids(last.orders)).toEqual([orders[4].id]);
    const past = (await get('/v0/orders?offset=50')).body;
    expect(past.orders).toEqual([]);
    expect(past.pagination).toEqual({ limit: 10, offset: 50, total: 5 });
    expect((await get('/v0/orders?limit=1000')).body.orders).toHaveLength(5);
  });

  it('rejects bad paging and unknown parameters with their path', async () => {
    for (const [q, path] of [
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=abc', 'limit'],
      ['offset=-1', 'offset'],
      ['offset=1.5', 'offset'],
      ['bogus=1', ''],
    ]) {
      const { status, body } = await get(`/v0/orders?${q}`);
      expect(status, q).toBe(400);
      expect(
        body.error.details.map((d: Json) => d.path),
        q,
      ).toContain(path);
    }
  });

  it('never shows another organisation its orders', async () => {
    const theirs = (await get('/v0/orders', t.otherKey)).body;
    expect(ids(theirs.orders)).toEqual([otherOrder.id]);
    const mine = (await get('/v0/orders?limit=1000')).body;
    expect(ids(mine.orders)).not.toContain(otherOrder.id);
  });

  it('401s without a key', async () => {
    expect((await t.call({ method: 'GET', url: '/v0/orders', key: null })).statusCode).toBe(401);
  });
});

describe('GET /v0/order-items', () => {
  const allItems = () => orders.flatMap((o) => o.order_items as Json[]);

  it('lists every item with tasks and validation_errors, ordered by (created_at, id)', async () => {
    const { status, body } = await get('/v0/order-items?limit=100');
    expect(status).toBe(200);
    expect(ids(body.order_items)).toEqual(ids(allItems()));
    expect(body.pagination).toEqual({ limit: 100, offset: 0, total: 6 });
    for (const item of body.order_items) {
      expect(Array.isArray(item.tasks)).toBe(true);
      expect(Array.isArray(item.validation_errors)).toBe(true);
    }
    const recurring = body.order_items.find((i: Json) => i.type === 'RECURRING');
    expect(recurring.tasks).toHaveLength(3);
  });

  it('defaults to limit 10 offset 0', async () => {
    expect((await get('/v0/order-items')).body.pagination).toEqual({
      limit: 10,
      offset: 0,
      total: 6,
    });
  });

  it('filters by user_id and created_by', async () => {
    const byUser = (await get(`/v0/order-items?user_id=${DEMO.users[1].id}`)).body;
    expect(ids(byUser.order_items)).toEqual([
      orders[2].order_items[0].id,
      orders[4].order_items[0].id,
    ]);
    const byCreator = (await get(`/v0/order-items?created_by=${DEMO.users[0].id}`)).body;
    expect(byCreator.pagination.total).toBe(4);
  });

  it('filters by type and status (comma-separated lists)', async () => {
    const archive = (await get('/v0/order-items?type=ARCHIVE')).body;
    expect(archive.order_items.map((i: Json) => i.type)).toEqual(['ARCHIVE', 'ARCHIVE']);
    const two = (await get('/v0/order-items?type=ARCHIVE,RECURRING')).body;
    expect(two.pagination.total).toBe(3);
    const partial = (await get('/v0/order-items?status=PARTIALLY_COMPLETED')).body;
    expect(ids(partial.order_items)).toEqual([orders[3].order_items[0].id]);
    const done = (await get('/v0/order-items?status=COMPLETED,PARTIALLY_COMPLETED')).body;
    expect(done.pagination.total).toBe(6);
    const repeated = (await get('/v0/order-items?type=ARCHIVE&type=TASKING')).body;
    expect(repeated.pagination.total).toBe(5);
  });

  it('filters by order_ids, project_ids and ids', async () => {
    const byOrder = (await get(`/v0/order-items?order_ids=${orders[1].id},${orders[3].id}`)).body;
    expect(byOrder.pagination.total).toBe(3);
    const byProject = (await get(`/v0/order-items?project_ids=${DEMO.projects[1].id}`)).body;
    expect(ids(byProject.order_items)).toEqual([
      orders[1].order_items[1].id,
      orders[4].order_items[0].id,
    ]);
    const byIds = (await get(`/v0/order-items?ids=${orders[0].order_items[0].id},oi_nope`)).body;
    expect(ids(byIds.order_items)).toEqual([orders[0].order_items[0].id]);
  });

  it('filters by created_at range', async () => {
    const at = (i: number) => orders[i].created_at as string;
    const from = (await get(`/v0/order-items?created_at=${at(3)}/..`)).body;
    expect(from.pagination.total).toBe(2);
    const until = (await get(`/v0/order-items?created_at=../${at(1)}`)).body;
    expect(until.pagination.total).toBe(3);
    const between = (await get(`/v0/order-items?created_at=${at(1)}/${at(2)}`)).body;
    expect(between.pagination.total).toBe(3);
    const exact = (await get(`/v0/order-items?created_at=${at(0)}`)).body;
    expect(ids(exact.order_items)).toEqual([orders[0].order_items[0].id]);
  });

  it('filters by area range (km²)', async () => {
    const big = (await get('/v0/order-items?area=1000/..')).body;
    expect(big.order_items.map((i: Json) => i.id)).toEqual([orders[1].order_items[1].id]);
    const small = (await get('/v0/order-items?area=../1000')).body;
    expect(small.pagination.total).toBe(5);
    const field = featureCollection(FIELD);
    expect(small.order_items[0].geometry).toEqual(field);
    expect((await get('/v0/order-items?area=100/120')).body.pagination.total).toBe(5);
  });

  it('combines filters and pages', async () => {
    const page = (await get('/v0/order-items?type=TASKING,ARCHIVE&limit=2&offset=1')).body;
    expect(page.pagination).toEqual({ limit: 2, offset: 1, total: 5 });
    expect(ids(page.order_items)).toEqual([
      orders[1].order_items[0].id,
      orders[1].order_items[1].id,
    ]);
    expect((await get('/v0/order-items?offset=6')).body.order_items).toEqual([]);
  });

  it('rejects bad filter values with their path', async () => {
    for (const [q, path] of [
      ['type=FOO', 'type.0'],
      ['status=DONE', 'status.0'],
      ['created_at=yesterday', 'created_at'],
      ['created_at=2030-01-02T00:00:00Z/2030-01-01T00:00:00Z', 'created_at'],
      ['area=abc', 'area'],
      ['ids=', 'ids'],
      ['limit=0', 'limit'],
      ['offset=-5', 'offset'],
    ]) {
      const { status, body } = await get(`/v0/order-items?${q}`);
      expect(status, q).toBe(400);
      expect(
        body.error.details.map((d: Json) => d.path),
        q,
      ).toContain(path);
    }
  });

  it('401s without a key or with a wrong one', async () => {
    expect((await t.call({ method: 'GET', url: '/v0/order-items', key: null })).statusCode).toBe(
      401,
    );
    expect(
      (await t.call({ method: 'GET', url: '/v0/order-items', key: 'eok_wrong' })).statusCode,
    ).toBe(401);
  });

  it('never shows another organisation its items, even by id', async () => {
    const theirId = otherOrder.order_items[0].id;
    expect((await get(`/v0/order-items?ids=${theirId}`)).body.order_items).toEqual([]);
    expect((await get(`/v0/order-items?order_ids=${otherOrder.id}`)).body.pagination.total).toBe(0);
    const theirs = (await get('/v0/order-items', t.otherKey)).body;
    expect(ids(theirs.order_items)).toEqual([theirId]);
    expect(
      (await get(`/v0/order-items?ids=${orders[0].order_items[0].id}`, t.otherKey)).body
        .order_items,
    ).toEqual([]);
  });
});

describe('query plans', () => {
  const plan = (sql: string, ...params: unknown[]) =>
    (
      t.app.ctx.sqlite.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{
        detail: string;
      }>
    )
      .map((r) => r.detail)
      .join(' | ');

  it('pages orders, items and tasks through indexes, without sorting', () => {
    const page = plan(
      'SELECT wire_json FROM orders WHERE org_id = ? ORDER BY created_at, id LIMIT 10',
      'org-demo',
    );
    expect(page).toContain('USING INDEX orders_org_created');
    expect(page).not.toContain('TEMP B-TREE');
    expect(
      plan(
        'SELECT * FROM orders WHERE org_id = ? AND user_id = ? ORDER BY created_at, id LIMIT 10',
        'a',
        'b',
      ),
    ).toContain('orders_org_user_created');
    expect(plan('SELECT * FROM order_items WHERE order_id = ? ORDER BY position', 'x')).toContain(
      'order_items_order',
    );
    expect(
      plan("SELECT * FROM tasks WHERE order_item_id IN (SELECT value FROM json_each('[]'))"),
    ).toContain('tasks_item');
    expect(
      plan('SELECT * FROM order_items WHERE org_id = ? ORDER BY created_at, id LIMIT 10', 'x'),
    ).toContain('order_items_org_created');
  });
});
