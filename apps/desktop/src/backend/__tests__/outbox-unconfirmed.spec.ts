/**
 * The backend's outbox against a service that ignores Idempotency-Key and never says it honours
 * it (a loopback proxy in front of the real reference service drops the key and the service's
 * `Idempotency-Key-Support` header, and loses or drops the answers it is told to): a create in
 * doubt becomes `unconfirmed` (not resent), the user confirms or resends it through the
 * contract, and the Idempotency-Key setting overrides what the service says.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxEntryView } from '../../shared/contract';
import { startBackend, startService, type TestBackend, type TestService } from './harness';

let service: TestService;
let proxy: { url: string; close(): Promise<void> };
/** What the next creates meet: `lose` (forwarded, answer cut) or `drop` (never forwarded). */
const next: Array<'lose' | 'drop'> = [];

/** A proxy that plays a service ignoring the key. */
function startIgnoringProxy(target: string): Promise<typeof proxy> {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const isCreate = req.method === 'POST' && !req.url?.includes('/search');
      const fault = isCreate ? next.shift() : undefined;
      if (fault === 'drop') return req.socket.destroy();
      const headers: http.OutgoingHttpHeaders = { ...req.headers, host: upstream.host };
      delete headers['idempotency-key'];
      const up = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers,
        },
        (upRes) => {
          const parts: Buffer[] = [];
          upRes.on('data', (c: Buffer) => parts.push(c));
          upRes.on('end', () => {
            if (fault === 'lose') return req.socket.destroy();
            const coding = upRes.headers['content-encoding'];
            res.writeHead(upRes.statusCode ?? 502, {
              'content-type': upRes.headers['content-type'] ?? 'application/json',
              // The service compresses what the client asked to be compressed: say so.
              ...(coding ? { 'content-encoding': coding } : {}),
            });
            res.end(Buffer.concat(parts));
          });
        },
      );
      up.on('error', () => req.socket.destroy());
      up.end(Buffer.concat(chunks));
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      }),
    ),
  );
}

beforeAll(async () => {
  service = await startService(60);
  proxy = await startIgnoringProxy(service.url);
});
afterAll(async () => {
  await proxy?.close();
  await service?.close();
});

const jobs = () =>
  service.server.app.ctx.sqlite
    .prepare<[], { id: string }>('SELECT id FROM jobs ORDER BY seq')
    .all()
    .map((r) => r.id);
const job = { workflow_id: 'wf-ndvi-timeseries', project_id: 'prj-demo-crops' };

async function connected(): Promise<TestBackend> {
  const t = startBackend();
  const online = t.waitFor(
    'connectivity.changed',
    (p) => (p as { state: string }).state === 'online',
  );
  await t.call('settings.update', { serviceUrl: proxy.url, apiKey: service.key });
  await online;
  return t;
}

describe('the outbox against a service that ignores Idempotency-Key', () => {
  let t: TestBackend;
  afterAll(async () => t?.close());

  it('a lost create waits unconfirmed, then the user confirms it or sends it again', async () => {
    t = await connected();
    expect((await t.call('settings.get')).idempotency).toBe('auto');
    const before = jobs().length;
    const lost = (await t.call('outbox.enqueue', { kind: 'job', input: job })) as OutboxEntryView;
    const dropped = (await t.call('outbox.enqueue', {
      kind: 'job',
      input: job,
    })) as OutboxEntryView;
    next.push('lose', 'drop');
    const result = await t.call('outbox.flush');
    expect(result).toMatchObject({ sent: 0, unconfirmed: 2, remaining: 0 });
    expect(result.problems.map((p) => p.id)).toEqual([lost.id, dropped.id]);
    expect(result.problems[0]!.message).toMatch(/may already be on the service/);
    expect(jobs().length).toBe(before + 1);

    const { entries, counts } = await t.call('outbox.list', { states: ['unconfirmed'] });
    expect(counts.unconfirmed).toBe(2);
    const view = entries.find((e) => e.id === lost.id)!;
    expect(view.can).toEqual({
      edit: false,
      retry: false,
      cancel: true,
      confirm: true,
      resend: true,
    });
    expect(view.lastError).toMatchObject({ kind: 'network', inDoubt: true });
    expect(Date.parse(view.lastError!.attemptedAt!)).toBeGreaterThanOrEqual(
      Date.parse(lost.createdAt),
    );
    expect(view.input).toEqual(job);

    // No candidate: "it was created" needs the id the service gave it.
    const noId = await t.raw('outbox.confirm', { id: lost.id });
    expect(noId.ok).toBe(false);
    const created = jobs().at(-1)!;
    expect(await t.call('outbox.confirm', { id: lost.id, remoteId: created })).toMatchObject({
      state: 'sent',
      remoteId: created,
    });
    expect(await t.call('outbox.resend', { id: dropped.id })).toMatchObject({ state: 'queued' });
    expect(await t.call('outbox.flush')).toMatchObject({ sent: 1, unconfirmed: 0, remaining: 0 });
    expect(jobs().length).toBe(before + 2);
  });

  it("the setting 'honoured' overrides the service's silence: a lost create waits to be resent", async () => {
    expect(await t.call('settings.update', { idempotency: 'honoured' })).toMatchObject({
      idempotency: 'honoured',
    });
    const entry = (await t.call('outbox.enqueue', { kind: 'job', input: job })) as OutboxEntryView;
    next.push('drop');
    expect(await t.call('outbox.flush')).toMatchObject({ unconfirmed: 0, remaining: 1 });
    const view = (await t.call('outbox.list')).entries.find((e) => e.id === entry.id)!;
    expect(view).toMatchObject({ state: 'queued', lastError: { inDoubt: true } });
    // Sent again (the user said the key is honoured).
    expect(await t.call('outbox.flush')).toMatchObject({ sent: 1, remaining: 0 });
  });
});
