/**
 * `eo outbox ...` in-process against the real service: queueing offline with the domain's
 * field-level errors, listing, flushing (sent once, into the mirror; exit 1 on failures) and
 * the user's retry / cancel.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
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
const tmp = tempDir('cli-outbox');
let n = 0;
const freshDb = () => path.join(tmp.dir, `local-${n++}.db`);

beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
  tmp.remove();
});

const entryOf = (stdout: string) => JSON.parse(stdout) as OutboxEntry;

describe('eo outbox', () => {
  it('add checks the input with the domain schema: field paths, exit 2, nothing queued', async () => {
    const db = freshDb();
    const order = orderInput('Bad survey');
    const bad = await eo([
      'outbox',
      'add',
      'order',
      '--db',
      db,
      '--json',
      JSON.stringify({ order_items: [{ ...order.order_items[0], name: '' }], dry_run: true }),
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^eo outbox add: Invalid order; nothing queued\n/);
    expect(bad.stderr).toMatch(/\n {2}order_items\.0\.name: /);
    expect(bad.stderr).toContain(
      'usage: eo outbox add <order|aoi|index|visualization|delivery|job>',
    );

    const kind = await eo(['outbox', 'add', 'widget', '--db', db, '--json', '{}']);
    expect(kind.code).toBe(2);
    expect(kind.stderr).toContain('unknown kind "widget" (kinds: order, aoi, index');
    const noInput = await eo(['outbox', 'add', 'index', '--db', db]);
    expect(noInput.code).toBe(2);
    expect(noInput.stderr).toContain('give the input with --json or --file');
    const noKind = await eo(['outbox', 'add', '--db', db]);
    expect(noKind.stderr).toContain('missing <kind>');

    const list = await eo(['outbox', 'list', '--db', db]);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([]);
  });

  it('add checks the service profile too: provider-v0 refuses an order without usecase, nothing queued', async () => {
    const db = freshDb();
    const order = JSON.stringify(orderInput('Profile survey'));
    const refused = await eo(
      ['outbox', 'add', 'order', '--db', db, '--dialect', 'provider-v0', '--json', order],
      {},
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^eo outbox add: Invalid order for the provider-v0 service profile; nothing queued\n/,
    );
    expect(refused.stderr).toMatch(/\n {2}order_items\.0\.usecase: /);
    expect(JSON.parse((await eo(['outbox', 'list', '--db', db])).stdout)).toEqual([]);

    const withUsecase = orderInput('Profile survey');
    withUsecase.order_items[0] = { ...withUsecase.order_items[0]!, usecase: 'agriculture' };
    const queued = await eo(
      ['outbox', 'add', 'order', '--db', db, '--json', JSON.stringify(withUsecase)],
      {
        env: { EO_DIALECT: 'provider-v0' },
      },
    );
    expect(queued.stderr).toBe('');
    expect(queued.code).toBe(0);
    // The open profile (the default) queues the order without usecase, as before.
    expect((await eo(['outbox', 'add', 'order', '--db', db, '--json', order])).code).toBe(0);
  });

  it('add offline, then flush: each create sent once, recorded in the mirror; exit 0', async () => {
    const db = freshDb();
    // Queueing needs no service: no URL, no key.
    const order = await eo([
      'outbox',
      'add',
      'order',
      '--db',
      db,
      '--json',
      JSON.stringify(orderInput('CLI survey')),
    ]);
    expect(order.code).toBe(0);
    const queued = entryOf(order.stdout);
    expect(queued).toMatchObject({ kind: 'order', state: 'queued', attempts: 0 });
    const index = await eo(['outbox', 'add', 'index', '--db', db, '--file', '-'], {
      stdin: JSON.stringify(indexInput('CLI index')),
    });
    expect(index.code).toBe(0);

    const before = (await serviceOrders(testClient(service.url, service.key))).length;
    const flushed = await eo(['outbox', 'flush', '--db', db], {
      env: { EO_URL: service.url, EO_API_KEY: service.key },
    });
    expect(flushed.stderr).toBe('');
    expect(flushed.code).toBe(0);
    expect(JSON.parse(flushed.stdout)).toEqual({
      sent: 2,
      failed: 0,
      blocked: 0,
      unconfirmed: 0,
      remaining: 0,
      problems: [],
    });
    const orders = await serviceOrders(testClient(service.url, service.key));
    expect(orders).toHaveLength(before + 1);

    const list = await eo(['outbox', 'list', '--db', db, '--state', 'sent']);
    const sent = JSON.parse(list.stdout) as OutboxEntry[];
    expect(sent.map((e) => e.kind)).toEqual(['order', 'index']);
    expect(sent[0]!.remoteId).toBe(orders.find((o) => o.name === 'CLI survey')!.id);
    const sqlite = new Database(db, { readonly: true });
    try {
      const mirrored = sqlite.prepare('SELECT id FROM mirror_orders').pluck().all();
      expect(mirrored).toEqual([sent[0]!.remoteId]);
    } finally {
      sqlite.close();
    }
    // A second flush has nothing to send and sends nothing.
    const again = await eo([
      'outbox',
      'flush',
      '--db',
      db,
      '--url',
      service.url,
      '--key',
      service.key,
    ]);
    expect(again.code).toBe(0);
    expect((await serviceOrders(testClient(service.url, service.key))).length).toBe(before + 1);
  });

  it('a create the service refuses: flush exits 1 naming it and the field; retry and cancel decide', async () => {
    const db = freshDb();
    const flags = ['--db', db, '--url', service.url, '--key', service.key];
    const bad = { ...indexInput('Unknown satellite'), satellite_id: 'sat-nowhere' };
    const added = entryOf(
      (await eo(['outbox', 'add', 'index', '--db', db, '--json', JSON.stringify(bad)])).stdout,
    );
    const flushed = await eo(['outbox', 'flush', ...flags, '--format', 'table']);
    expect(flushed.code).toBe(1);
    expect(flushed.stdout).toMatch(
      /^SENT +FAILED +BLOCKED +UNCONFIRMED +REMAINING\n0 +1 +0 +0 +0\n$/,
    );
    expect(flushed.stderr).toContain('eo outbox flush: 1 not sent:');
    expect(flushed.stderr).toContain(`failed index ${added.id}: api 400: `);
    expect(flushed.stderr).toMatch(/\n {4}satellite_id: .*sat-nowhere/);
    for (const out of [flushed.stdout, flushed.stderr]) expect(out).not.toContain(service.key);

    const table = await eo(['outbox', 'list', '--db', db, '--format', 'table']);
    expect(table.stdout).toMatch(new RegExp(`\\n${added.id} +index +failed +1 `));

    const retried = await eo(['outbox', 'retry', added.id, '--db', db]);
    expect(retried.code).toBe(0);
    expect(entryOf(retried.stdout)).toMatchObject({
      id: added.id,
      state: 'queued',
      lastError: null,
    });
    const cancelled = await eo(['outbox', 'cancel', added.id, '--db', db]);
    expect(cancelled.code).toBe(1);
    expect(cancelled.stderr).toContain(
      'already attempted and may be on the service; flush it first',
    );

    const failedAgain = await eo(['outbox', 'flush', ...flags]);
    expect(failedAgain.code).toBe(1);
    expect(JSON.parse(failedAgain.stdout)).toMatchObject({
      failed: 1,
      problems: [{ id: added.id, state: 'failed' }],
    });
    const cancelledNow = await eo(['outbox', 'cancel', added.id, '--db', db]);
    expect(cancelledNow.code).toBe(0);
    expect(entryOf(cancelledNow.stdout).state).toBe('cancelled');
    const unknown = await eo(['outbox', 'retry', 'no-such-entry', '--db', db]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('eo outbox retry: No outbox entry no-such-entry\n');
    const states = await eo(['outbox', 'list', '--db', db, '--state', 'queued,lost']);
    expect(states.code).toBe(2);
    expect(states.stderr).toContain('--state: unknown lost (states: queued, sending, sent');
  });

  it('the service unreachable: the entry stays queued, flush exits 1', async () => {
    const db = freshDb();
    await eo(['outbox', 'add', 'index', '--db', db, '--json', JSON.stringify(indexInput('Later'))]);
    const flushed = await eo([
      'outbox',
      'flush',
      '--db',
      db,
      '--url',
      'http://127.0.0.1:9',
      '--key',
      'eok_whatever',
    ]);
    expect(flushed.code).toBe(1);
    expect(JSON.parse(flushed.stdout)).toMatchObject({ sent: 0, failed: 0, remaining: 1 });
    expect(flushed.stderr).toMatch(/queued index .*: network: /);
    const status = await eo(['status', '--db', db]);
    expect(JSON.parse(status.stdout)).toMatchObject({ outbox: { queued: 1, sent: 0 } });
  });
});
