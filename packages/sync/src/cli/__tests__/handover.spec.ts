/**
 * `eo outbox handover export|import` in-process against the real service: laptop A (no link)
 * hands an order and an index over; laptop B takes them in, sends the index, and holds the
 * order until a person confirms it at today's price (`eo outbox quote`, `--confirm-orders`: a
 * wrong total sends nothing); then A's flush finds both sent and sends nothing itself. A
 * handed-over entry can be taken back, and is never cancelled while handed over.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../db/__tests__/temp';
import type { OutboxEntry } from '../../outbox/index';
import {
  indexInput,
  orderInput,
  serviceOrders,
  startService,
  testClient,
  type TestService,
} from '../../outbox/__tests__/service';
import { eo } from './run-eo';

let service: TestService;
const tmp = tempDir('cli-handover');
const dbA = path.join(tmp.dir, 'a.db');
const dbB = path.join(tmp.dir, 'b.db');
const file = path.join(tmp.dir, 'handover.json');
let env: Record<string, string>;

beforeAll(async () => {
  service = await startService();
  env = { EO_URL: service.url, EO_API_KEY: service.key };
});
afterAll(async () => {
  await service.close();
  tmp.remove();
});

const add = async (db: string, kind: string, input: unknown) =>
  JSON.parse(
    (await eo(['outbox', 'add', kind, '--db', db, '--json', JSON.stringify(input)])).stdout,
  ) as OutboxEntry;
const entries = async (db: string) => ({
  entries: JSON.parse(
    (await eo(['outbox', 'list', '--db', db, '--format', 'json'])).stdout,
  ) as OutboxEntry[],
});

describe('eo outbox handover', () => {
  it('hands work over; the other laptop sends it, paid orders only at a confirmed price', async () => {
    const order = await add(dbA, 'order', orderInput('Handed-over survey'));
    const index = await add(dbA, 'index', indexInput('Handed-over NDRE'));
    const out = await eo([
      'outbox',
      'handover',
      'export',
      '--db',
      dbA,
      '--out',
      file,
      '--format',
      'table',
    ]);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^handed over 2 queued creates to /);
    expect((await entries(dbA)).entries.map((e) => e.state)).toEqual([
      'handed_over',
      'handed_over',
    ]);
    // Handed over: not cancellable here (the other laptop may send it).
    const cancel = await eo(['outbox', 'cancel', order.id, '--db', dbA]);
    expect(cancel.code).toBe(1);
    expect(cancel.stderr).toContain(
      'was handed over to another laptop, which may send it: take it back first',
    );

    const taken = await eo([
      'outbox',
      'handover',
      'import',
      file,
      '--db',
      dbB,
      '--format',
      'table',
    ]);
    expect(taken.code).toBe(0);
    expect(taken.stdout).toContain('queued 2 creates from another laptop');
    expect(taken.stdout).toContain('1 orders wait for your confirmation');

    // B's flush sends the index and holds the order.
    const first = await eo(['outbox', 'flush', '--db', dbB, '--format', 'json'], { env });
    expect(first.code).toBe(1);
    expect(first.stderr).toContain('1 orders from another laptop wait for your confirmation');
    expect(JSON.parse(first.stdout)).toMatchObject({ sent: 1, remaining: 1 });

    const quote = await eo(['outbox', 'quote', '--db', dbB, '--format', 'json'], { env });
    const [priced] = JSON.parse(quote.stdout) as Array<{ id: string; total: number; from: string }>;
    expect(priced).toMatchObject({ id: order.id, from: 'another laptop' });
    expect(priced!.total).toBeGreaterThan(0);

    const wrong = await eo(
      ['outbox', 'flush', '--db', dbB, '--confirm-orders', `${order.id}=${priced!.total + 1}`],
      { env },
    );
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(
      `the price of order ${order.id} is now ${priced!.total.toFixed(2)}`,
    );
    expect(
      (await serviceOrders(testClient(service.url, service.key))).map((o) => o.name),
    ).not.toContain('Handed-over survey');

    const right = await eo(
      [
        'outbox',
        'flush',
        '--db',
        dbB,
        '--confirm-orders',
        `${order.id}=${priced!.total}`,
        '--format',
        'json',
      ],
      { env },
    );
    expect(right.code).toBe(0);
    expect(JSON.parse(right.stdout)).toMatchObject({ sent: 1, remaining: 0 });

    // A reconnects: both found on the service, nothing sent again.
    const back = await eo(['outbox', 'flush', '--db', dbA, '--format', 'json'], { env });
    expect(back.code).toBe(0);
    const onA = (await entries(dbA)).entries;
    expect(onA.map((e) => [e.id, e.state])).toEqual([
      [order.id, 'sent'],
      [index.id, 'sent'],
    ]);
    const onB = (await entries(dbB)).entries;
    expect(onA.map((e) => e.remoteId)).toEqual(onB.map((e) => e.remoteId));
    const names = (await serviceOrders(testClient(service.url, service.key))).map((o) => o.name);
    expect(names.filter((n) => n === 'Handed-over survey')).toHaveLength(1);
  });

  it('take-back puts a handed-over entry back in the queue', async () => {
    const db = path.join(tmp.dir, 'c.db');
    const job = await add(db, 'job', {
      workflow_id: 'wf-ndvi-timeseries',
      project_id: 'prj-demo-crops',
    });
    await eo(['outbox', 'handover', 'export', '--db', db, '--out', path.join(tmp.dir, 'c.json')]);
    const back = await eo(['outbox', 'take-back', job.id, '--db', db, '--format', 'json']);
    expect(back.code).toBe(0);
    expect(JSON.parse(back.stdout)).toMatchObject({ id: job.id, state: 'queued' });
    const again = await eo(['outbox', 'take-back', job.id, '--db', db]);
    expect(again.stderr).toContain('only handed-over work can be taken back');
  });
});
