/** Small helpers shared by the order tests. */
import { createTestApp, type TestApp } from '../../testing/harness';
import { NOW_MS, seedScenes } from './fixtures';

/** Wire JSON as tests read it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** A test app whose clock starts at 2030-01-01 and ticks 1 ms per reading (stable orderings). */
export async function createOrdersApp(): Promise<TestApp> {
  let ms = NOW_MS;
  const t = await createTestApp({ now: () => (ms += 1) });
  seedScenes(t);
  return t;
}

export async function createOrder(
  t: TestApp,
  items: unknown[],
  opts: { key?: string; headers?: Record<string, string>; dryRun?: boolean } = {},
) {
  return t.call({
    method: 'POST',
    url: '/v0/orders',
    payload:
      opts.dryRun === undefined
        ? { order_items: items }
        : { order_items: items, dry_run: opts.dryRun },
    ...(opts.key ? { key: opts.key } : {}),
    ...(opts.headers ? { headers: opts.headers } : {}),
  });
}

export function count(t: TestApp, table: string, where = '1 = 1', ...params: unknown[]): number {
  return (
    t.app.ctx.sqlite
      .prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where}`)
      .get(...params) as {
      n: number;
    }
  ).n;
}

/** Runs exactly one due step (ignoring due times). */
export function step(t: TestApp): number {
  return t.app.ctx.worker.runDue({ ignoreDueTime: true, limit: 1 });
}

export async function itemsOf(t: TestApp, orderId: string, key?: string) {
  const res = await t.call({
    method: 'GET',
    url: `/v0/order-items?order_ids=${orderId}`,
    ...(key ? { key } : {}),
  });
  return res.json().order_items as Json[];
}

export async function orderById(t: TestApp, orderId: string) {
  const res = await t.call({ method: 'GET', url: '/v0/orders?limit=1000' });
  return (res.json().orders as Json[]).find((o) => o.id === orderId)!;
}
