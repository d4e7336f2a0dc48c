/**
 * Queued work handed over from a laptop without a link to one with a link, each create once
 * across both. Laptop A queues 20 creates (17 orders with their items, an AOI with its
 * visualization chain: a custom index and a visualization of the AOI's scenes); one order is in
 * doubt (A sent it, the service created it, the answer was lost, then the link went). A hands
 * them over in a file; laptop B takes them in and sends them through a service that ignores the
 * Idempotency-Key and loses every third answer (a deterministic fault proxy); then A reconnects
 * and flushes: it finds the orders, the AOI and the index sent, sends nothing, and B's receipt
 * settles the rest by key. The service's own database is the judge: each create exactly once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createEoClient, type EoClient } from '@eo/api-client';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../../__tests__/fault-proxy';
import { openMirror, type Mirror } from '../../mirror/mirror';
import {
  aoiInput,
  indexInput,
  orderInput,
  startService,
  tempDatabase,
  testClient,
  type TestService,
} from './service';

let svc: TestService;
let dir: string;
let proxy: FaultProxy;
let a: Mirror;
let b: Mirror;
const names = Array.from({ length: 17 }, (_, i) => `Handed over ${i}`);

beforeAll(async () => {
  svc = await startService();
  const tmp = tempDatabase();
  dir = tmp.dir;
  tmp.close();
  a = openMirror(path.join(dir, 'a', 'mirror.sqlite'));
  b = openMirror(path.join(dir, 'b', 'mirror.sqlite'));
  // Every third answer the service gives is lost on the way back (after it committed).
  let answers = 0;
  proxy = await startFaultProxy(svc.url, () => (++answers % 3 === 0 ? 'lose' : 'pass'), {
    stripIdempotencyKey: true,
  });
});
afterAll(async () => {
  a?.close();
  b?.close();
  await proxy?.close();
  await svc?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Rows on the service, in its own database. */
const count = (sql: string, ...params: unknown[]) =>
  svc.server.app.ctx.sqlite
    .prepare(sql)
    .pluck()
    .get(...params) as number;

/** A client that counts the creates it sends (POSTs other than searches). */
function countingClient(url: string): { client: EoClient; creates: () => number } {
  let creates = 0;
  const client = createEoClient({
    baseUrl: url,
    apiKey: svc.key,
    timeoutMs: 5_000,
    retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 20 },
    fetch: (input, init) => {
      if (init?.method === 'POST' && !String(input).includes('/search')) creates++;
      return fetch(input, init);
    },
  });
  return { client, creates: () => creates };
}

async function flushUntilSettled(m: Mirror, client: EoClient) {
  for (let round = 0; round < 30; round++) {
    const p = await m.flush(client, { ignoreBackoff: true });
    if (p.remaining === 0) return p;
  }
  throw new Error(`not settled after 30 flushes: ${JSON.stringify(m.outbox.counts())}`);
}

describe('handing over queued work', () => {
  it('20 creates, sent by the other laptop through lost answers, exist once each', async () => {
    const direct = testClient(svc.url, svc.key);
    const index = a.outbox.enqueue('index', indexInput('Handed-over red edge'));
    const aoi = a.outbox.enqueue('aoi', await aoiInput(direct, 'Handed-over maize'));
    const vis = a.outbox.enqueue('visualization', {
      aoi_id: `local:${aoi.id}`,
      index_id: `local:${index.id}`,
      src_asset_ids: [`local:${aoi.id}#scenes`],
    });
    const orders = names.map((n) => a.outbox.enqueue('order', orderInput(n)));
    const before = count('SELECT count(*) FROM orders');
    // The first order left A before the link went: created on the service, its answer lost.
    await direct.createOrder(orderInput(names[0]!));
    const raw = new Database(a.file);
    raw
      .prepare(
        `UPDATE outbox SET attempts = 1, last_error = json_object('kind', 'network',
           'message', 'the connection was reset', 'inDoubt', json('true'), 'attemptedAt', 1)
         WHERE id = ?`,
      )
      .run(orders[0]!.id);
    raw.close();

    // What a handover would take is shown first, nothing handed over: the visualization alone
    // goes with the AOI and the index it refers to; everything makes a file of a known size.
    const one = a.handover.plan({ ids: [vis.id] });
    expect(one.handedOver.map((e) => e.id)).toEqual([index.id, aoi.id, vis.id]);
    const plan = a.handover.plan();
    expect(plan.handedOver).toHaveLength(20);
    expect(a.outbox.counts()).toMatchObject({ queued: 20, handed_over: 0 });

    // A hands everything over: nothing of it will be sent from A.
    const file = path.join(dir, 'handover.json');
    const written = a.handover.write(file);
    expect(written.handedOver).toBe(20);
    expect(written.bytes).toBe(plan.bytes);
    expect(a.outbox.counts()).toMatchObject({ queued: 0, handed_over: 20 });

    // B takes it in and sends it: the orders wait for a person's price check in the apps,
    // this outbox sends what it is asked to.
    const received = await b.handover.read(file);
    expect(received.queued).toHaveLength(20);
    expect(received.orders).toHaveLength(17);
    await flushUntilSettled(b, testClient(proxy.url, svc.key));
    // A third of the answers were lost (every third), creates' and lookups' alike.
    expect(proxy.counts.lose).toBe(Math.floor((proxy.counts.lose + proxy.counts.pass) / 3));
    expect(proxy.counts.lose).toBeGreaterThanOrEqual(10);
    expect(b.outbox.counts()).toMatchObject({ sent: 20, unconfirmed: 0 });

    // Each create exactly once on the service.
    expect(count('SELECT count(*) FROM orders') - before).toBe(17);
    for (const name of names)
      expect(count(`SELECT count(*) FROM order_items WHERE name = ?`, name), name).toBe(1);
    expect(count('SELECT count(*) FROM aois WHERE name = ?', 'Handed-over maize')).toBe(1);
    expect(count('SELECT count(*) FROM indices WHERE name = ?', 'Handed-over red edge')).toBe(1);
    expect(count('SELECT count(*) FROM visualizations')).toBe(1);

    // A reconnects and flushes: the orders, the AOI and the index are found, nothing is sent.
    const reconnect = countingClient(svc.url);
    const flushed = await a.flush(reconnect.client, { ignoreBackoff: true });
    expect(reconnect.creates()).toBe(0);
    expect(flushed.sent).toBe(19);
    expect(a.outbox.get(vis.id)!.state).toBe('handed_over');
    for (const e of [index, aoi, ...orders])
      expect(a.outbox.get(e.id)!.remoteId).toBe(b.outbox.get(e.id)!.remoteId);

    // B's receipt settles the visualization by its key (the service cannot list visualizations).
    const receipt = path.join(dir, 'receipt.json');
    b.handover.write(receipt);
    const back = await a.handover.read(receipt);
    const visOnB = b.outbox.get(vis.id)!;
    expect(visOnB.state).toBe('sent');
    expect(back.confirmed).toEqual([vis.id]);
    expect(a.outbox.get(vis.id)).toMatchObject({ state: 'sent', remoteId: visOnB.remoteId });
    expect(a.records.visualizations().map((v) => v['id'])).toEqual([visOnB.remoteId]);
    expect(a.outbox.counts()).toMatchObject({ sent: 20, handed_over: 0 });
    expect(reconnect.creates()).toBe(0);
    expect(count('SELECT count(*) FROM orders') - before).toBe(17);
    expect(count('SELECT count(*) FROM visualizations')).toBe(1);
  });
});
