/**
 * GET /v0/orders answers exactly the stored wire JSON of the page's orders, joined: this
 * compares every response, byte for byte, with that page assembled here the plain way (one
 * ordered SELECT of `wire_json`, the byte budget applied in JS, joined with commas), with the
 * page cache on and off, across filters, limits, offsets, page cuts at the byte budget,
 * non-ASCII text and changes. The service builds the page another way (the orders read as
 * texts and encoded again, `orders-page.ts`), and this is what says its bytes are the same. A
 * database in UTF-16 is read as bytes in the service (SQLite would read the stored UTF-8 as
 * UTF-16).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../orgs/repository';
import { DEMO, OTHER, type TestApp } from '../../testing/harness';
import { createTestApp } from '../../testing/harness';
import { archiveItem, featureCollection, recurringItem, seedScenes, taskingItem } from './fixtures';
import { createOrder } from './helpers';

/** Small enough that pages of 100 end early after a handful of orders. */
const BUDGET = 20_000;
type Mode = 'cached' | 'uncached' | 'utf16';
const apps: Record<Mode, TestApp> = {} as never;
let fieldKey: Record<Mode, string> = {} as never;
const utf16Dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eo-orders-utf16-'));

/** An empty database file whose text encoding is UTF-16 (fixed by its first write). */
function utf16Database(): string {
  const file = path.join(utf16Dir, 'eo.sqlite');
  const db = new Database(file);
  db.pragma("encoding = 'UTF-16le'");
  db.exec('CREATE TABLE first_write (x); DROP TABLE first_write;');
  db.close();
  return file;
}

/** The page as the list defines it, built from the database the plain way. */
function expectedPage(
  t: TestApp,
  orgId: string,
  userId: string | undefined,
  limit: number,
  offset: number,
): Buffer {
  const scope = userId === undefined ? 'org_id = ?' : 'org_id = ? AND user_id = ?';
  const args = userId === undefined ? [orgId] : [orgId, userId];
  const { sqlite } = t.app.ctx;
  const total = sqlite
    .prepare(`SELECT count(*) FROM orders WHERE ${scope}`)
    .pluck()
    .get(...args) as number;
  const wires = sqlite
    .prepare(`SELECT wire_json FROM orders WHERE ${scope} ORDER BY created_at, id LIMIT ? OFFSET ?`)
    .pluck()
    .all(...args, limit, offset) as Buffer[];
  let bytes = 0;
  let shown = 0;
  for (const w of wires) {
    if (shown > 0 && bytes + w.length > BUDGET) break;
    bytes += w.length;
    shown++;
  }
  const pagination = { limit: shown < wires.length ? shown : limit, offset, total };
  return Buffer.concat([
    Buffer.from('{"orders":['),
    Buffer.from(wires.slice(0, shown).join(',')),
    Buffer.from(`],"pagination":${JSON.stringify(pagination)}}`),
  ]);
}

async function seed(t: TestApp): Promise<string> {
  seedScenes(t);
  const field = createApiKey(t.app.ctx.sqlite, { orgId: DEMO.orgId, userId: DEMO.users[1].id }, 0);
  for (let k = 0; k < 24; k++) {
    const items: unknown[] = [
      taskingItem({
        // Multi-byte UTF-8 and JSON escapes must go through the join untouched.
        name: k % 4 === 0 ? `Étang ${k} — 東京 "quoted" \\ 🛰️` : `Survey ${k}`,
        geometry: featureCollection([11.3, 44.45, 11.3 + 0.01 * (k + 1), 44.55]),
      }),
    ];
    if (k % 2 === 0) items.push(archiveItem({ name: `Archive ${k}` }));
    if (k % 3 === 0) items.push(recurringItem({ name: `Watch ${k}` }));
    const res = await createOrder(t, items, k % 3 === 1 ? { key: field } : {});
    expect(res.statusCode, res.body).toBe(201);
  }
  const other = await createOrder(t, [archiveItem({ project_id: OTHER.projectId })], {
    key: t.otherKey,
  });
  expect(other.statusCode, other.body).toBe(201);
  // Some orders paid and fulfilled, some not: wire_version differs from order to order.
  t.app.ctx.worker.runDue({ ignoreDueTime: true, limit: 30 });
  return field;
}

beforeAll(async () => {
  const now = () => Date.UTC(2030, 0, 1);
  apps.cached = await createTestApp({ now, maxListPageBytes: BUDGET });
  apps.uncached = await createTestApp({ now, maxListPageBytes: BUDGET, ordersCacheBytes: 0 });
  apps.utf16 = await createTestApp({ now, maxListPageBytes: BUDGET, dbFile: utf16Database() });
  expect(apps.utf16.app.ctx.sqlite.pragma('encoding', { simple: true })).toBe('UTF-16le');
  fieldKey = {
    cached: await seed(apps.cached),
    uncached: await seed(apps.uncached),
    utf16: await seed(apps.utf16),
  };
});
afterAll(async () => {
  for (const t of Object.values(apps)) await t.close();
  fs.rmSync(utf16Dir, { recursive: true, force: true });
});

const QUERIES: Array<[string, string | undefined, number, number]> = [];
for (const user of [undefined, DEMO.users[1].id, DEMO.users[0].id, 'usr-nobody'])
  for (const limit of [1, 3, 10, 100, 1000])
    for (const offset of [0, 1, 5, 7, 16, 23, 24, 100])
      QUERIES.push([
        `/v0/orders?limit=${limit}&offset=${offset}${user ? `&user_id=${user}` : ''}`,
        user,
        limit,
        offset,
      ]);

async function checkAll(mode: Mode): Promise<number> {
  const t = apps[mode];
  let cut = 0;
  for (const [url, user, limit, offset] of QUERIES) {
    const expected = expectedPage(t, DEMO.orgId, user, limit, offset);
    for (let repeat = 0; repeat < 2; repeat++) {
      const res = await t.call({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe('application/json; charset=utf-8');
      expect(res.rawPayload.toString('utf8'), url).toBe(expected.toString('utf8'));
      expect(res.rawPayload.equals(expected), url).toBe(true);
    }
    const body = JSON.parse(expected.toString('utf8')) as { pagination: { limit: number } };
    if (body.pagination.limit < limit) cut++;
  }
  return cut;
}

describe.each(['cached', 'uncached', 'utf16'] as const)('GET /v0/orders bytes, %s', (mode) => {
  it('are the stored wire JSON of the page, joined, for every filter, limit and offset', async () => {
    const cut = await checkAll(mode);
    // The budget really cut pages short (their `limit` says how many they hold).
    expect(cut).toBeGreaterThan(10);
    const other = await apps[mode].call({
      method: 'GET',
      url: '/v0/orders',
      key: apps[mode].otherKey,
    });
    expect(other.rawPayload.equals(expectedPage(apps[mode], OTHER.orgId, undefined, 10, 0))).toBe(
      true,
    );
  });

  it('stay so after orders change and new ones arrive', async () => {
    const t = apps[mode];
    t.app.ctx.worker.drain();
    expect(
      (await createOrder(t, [taskingItem({ name: 'late' })], { key: fieldKey[mode] })).statusCode,
    ).toBe(201);
    await checkAll(mode);
  });
});
