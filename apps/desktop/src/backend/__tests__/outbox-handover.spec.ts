/**
 * Queued work handed over through the backend's dispatch (outputs checked against the
 * contract): laptop A, which never reaches the service, queues an AOI and two orders, sees what
 * a handover would take and its size, writes the file (its entries `handed_over`, never sent
 * from A), takes one file back (a save cancelled). Laptop B, online, takes the file in under the
 * entries' own ids and sends them: each create once at the service, and a second reading of the
 * file doubles nothing. Hostile files (cut short, another service, entries listed twice, over
 * the size limit) are refused with their reason, and change nothing. While a batch sends, its
 * entries are not for handing over: refused as busy, and sent once when the batch ends.
 */
import { createEoClient } from '@eo/api-client';
import { OUTBOX_HANDOVER_FORMAT, type OutboxHandover } from '@eo/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_IMPORT_BASE64_CHARS, type HandoverFile } from '../../shared/contract';
import { aoiInput, auroraScene, taskingOrder } from './create-inputs';
import {
  connectTo,
  errorOf,
  startBackend,
  startService,
  until,
  type TestBackend,
  type TestService,
} from './harness';
import { startGateProxy } from '../../e2e/gate-proxy';

let service: TestService;
let a: TestBackend;
let b: TestBackend;
let queued: string[];
let scene: Awaited<ReturnType<typeof auroraScene>>;

beforeAll(async () => {
  service = await startService(200);
  scene = await auroraScene(createEoClient({ baseUrl: service.url, apiKey: service.key }));
  // A never reaches the service: none is configured there.
  a = startBackend();
  const entries = [
    await a.call('outbox.enqueue', {
      kind: 'aoi',
      input: aoiInput('Handed-over vines', scene.id, scene.box),
    }),
    await a.call('outbox.enqueue', {
      kind: 'order',
      input: taskingOrder([{ name: 'Handed-over north' }]),
    }),
    await a.call('outbox.enqueue', {
      kind: 'order',
      input: taskingOrder([{ name: 'Handed-over south' }]),
    }),
  ];
  queued = entries.map((e) => e.id);
  b = await connectTo(startBackend(), service);
  await b.call('settings.update', { autoSendOrders: true });
}, 120_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  await service?.close();
});

const onService = (sql: string, ...params: unknown[]) =>
  service.server.app.ctx.sqlite
    .prepare(sql)
    .pluck()
    .get(...params) as number;
const fileOf = (file: HandoverFile) =>
  JSON.parse(Buffer.from(file.base64, 'base64').toString('utf8')) as OutboxHandover;
const encoded = (body: unknown) => Buffer.from(JSON.stringify(body)).toString('base64');

describe('handing over queued work from the app', () => {
  let handed: HandoverFile;

  it('shows what a handover takes and its size, then writes exactly that', async () => {
    const plan = await a.call('outbox.handoverPlan');
    expect(plan.entries.map((e) => e.id)).toEqual(queued);
    expect(plan.entries.map((e) => e.kind)).toEqual(['aoi', 'order', 'order']);
    expect(plan.entries[1]!.summary).toContain('Handed-over north');
    expect(plan).toMatchObject({ orders: 2, receipts: 0 });
    expect((await a.call('outbox.list')).counts).toMatchObject({ queued: 3, handed_over: 0 });

    // A save dialog cancelled: the page takes the entries back, queued as before.
    const cancelled = await a.call('outbox.handOver', { ids: queued });
    expect((await a.call('outbox.list')).counts).toMatchObject({ queued: 0, handed_over: 3 });
    const back = await a.call('outbox.takeBack', { ids: cancelled.handedOver });
    expect(back.map((e) => e.state)).toEqual(['queued', 'queued', 'queued']);
    expect((await errorOf(a, 'outbox.takeBack', { ids: queued })).code).toBe('conflict');

    handed = await a.call('outbox.handOver', { ids: plan.entries.map((e) => e.id) });
    expect(handed.fileName).toMatch(/^eo-handover-3-creates-\d{8}-\d{4}\.json$/);
    expect(handed.bytes).toBe(plan.bytes);
    expect(handed.handedOver).toEqual(queued);
    expect(fileOf(handed).entries.map((e) => e.id)).toEqual(queued);
    expect((await a.call('outbox.list')).counts).toMatchObject({ queued: 0, handed_over: 3 });
    // Handed over is not for handing over again.
    expect((await errorOf(a, 'outbox.handOver', { ids: [queued[0]!] })).code).toBe('conflict');
  });

  it('refuses hostile files with their reason, changing nothing', async () => {
    const before = await b.call('outbox.list');
    const body = fileOf(handed);
    const cut = Buffer.from(handed.base64, 'base64').subarray(0, 300).toString('base64');
    const truncated = await errorOf(b, 'outbox.receiveHandover', { name: 'cut.json', base64: cut });
    expect(truncated).toMatchObject({ code: 'invalid_argument' });
    expect(truncated.message).toMatch(/^cut\.json: not a handover file: it is not JSON/);

    const elsewhere = await errorOf(b, 'outbox.receiveHandover', {
      name: 'elsewhere.json',
      base64: encoded({
        ...body,
        origin: { service: 'https://eo.elsewhere.example', organisation: null },
      }),
    });
    expect(elsewhere.code).toBe('invalid_argument');
    expect(elsewhere.message).toMatch(
      /from another origin: .*eo\.elsewhere\.example.*Nothing was changed/,
    );

    const twice = await errorOf(b, 'outbox.receiveHandover', {
      name: 'twice.json',
      base64: encoded({ ...body, entries: [...body.entries, body.entries[0]] }),
    });
    expect(twice.message).toMatch(/entries\.3\.id: listed twice/);

    const notOurs = await errorOf(b, 'outbox.receiveHandover', {
      name: 'notes.json',
      base64: encoded({ format: 'notes', entries: [] }),
    });
    expect(notOurs.message).toMatch(/not a handover file of EO Field Desk/);
    expect(body.format).toBe(OUTBOX_HANDOVER_FORMAT);

    // Over the limit: refused by its length at the bridge, never decoded.
    const oversized = await errorOf(b, 'outbox.receiveHandover', {
      name: 'huge.json',
      base64: 'A'.repeat(MAX_IMPORT_BASE64_CHARS + 4),
    });
    expect(oversized.code).toBe('invalid_argument');
    expect(oversized.details?.issues?.[0]).toMatchObject({ path: 'base64' });
    expect(oversized.details?.issues?.[0]?.message).toMatch(/larger than 64 MB/);

    expect(await b.call('outbox.list')).toEqual(before);
  });

  it('the laptop with a link takes it in under the same ids and sends each create once', async () => {
    const received = await b.call('outbox.receiveHandover', {
      name: handed.fileName,
      base64: handed.base64,
    });
    expect(received).toEqual({ queued: 3, confirmed: 0, kept: 0, orders: 2 });
    const onB = await b.call('outbox.list', { states: ['queued'] });
    expect(onB.entries.map((e) => e.id)).toEqual(queued);
    // Read again (a second copy of the stick): nothing doubled.
    const again = await b.call('outbox.receiveHandover', {
      name: 'copy.json',
      base64: handed.base64,
    });
    expect(again).toEqual({ queued: 0, confirmed: 0, kept: 3, orders: 0 });

    expect(await b.call('outbox.flush')).toMatchObject({ sent: 3, failed: 0, remaining: 0 });
    for (const name of ['Handed-over north', 'Handed-over south'])
      expect(onService('SELECT count(*) FROM order_items WHERE name = ?', name), name).toBe(1);
    expect(onService('SELECT count(*) FROM aois WHERE name = ?', 'Handed-over vines')).toBe(1);
    // A never sends them: they stay handed over until found sent or receipted.
    expect((await a.call('outbox.list')).counts).toMatchObject({ queued: 0, handed_over: 3 });
  });
});

describe('while a batch sends', () => {
  it('refuses to hand over (busy), changes nothing, and the batch sends the create once', async () => {
    // The journeys' gate proxy, shut on the AOI's POST: the batch is caught while it sends.
    const proxy = await startGateProxy(
      service.url,
      (r) => r.method === 'POST' && r.url.startsWith('/v0/aois'),
    );
    const c = await connectTo(startBackend(), { url: proxy.url, key: service.key });
    try {
      const entry = await c.call('outbox.enqueue', {
        kind: 'aoi',
        input: aoiInput('Sent while asked to hand over', scene.id, scene.box),
      });
      // Queued while online: the automatic batch takes it (or Submit all would).
      void c.raw('outbox.flush', undefined);
      await until('the batch sent the AOI (held at the proxy)', () => proxy.held > 0);

      const busy = await errorOf(c, 'outbox.handOver', { ids: [entry.id] });
      expect(busy.code).toBe('busy');
      expect(busy.message).toMatch(/The outbox is sending: hand over queued work when the batch/);
      expect((await c.call('outbox.list')).counts).toMatchObject({ handed_over: 0, sending: 1 });

      proxy.release();
      await until('the batch ended with the AOI sent', async () => {
        const counts = (await c.call('outbox.list')).counts;
        return counts.sent === 1 && counts.sending === 0;
      });
      expect(
        onService('SELECT count(*) FROM aois WHERE name = ?', 'Sent while asked to hand over'),
      ).toBe(1);
      // Sent is not for handing over either.
      expect((await errorOf(c, 'outbox.handOver', { ids: [entry.id] })).code).toBe('conflict');
    } finally {
      await c.close();
      await proxy.close();
    }
  });
});
