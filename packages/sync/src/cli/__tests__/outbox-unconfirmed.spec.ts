/**
 * `eo outbox` against a service that ignores Idempotency-Key (a fault proxy in front of the real
 * service strips the key and the service's capability header, and loses answers): a create in
 * doubt is not resent, `list` shows it unconfirmed with what was sent and when, and the user
 * confirms or resends it. `--idempotency` / `EO_IDEMPOTENCY` override what the service says.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../db/__tests__/temp';
import { startFaultProxy, type FaultProxy } from '../../__tests__/fault-proxy';
import type { OutboxEntry } from '../../outbox/index';
import { startService, type TestService } from '../../outbox/__tests__/service';
import { eo } from './run-eo';

let service: TestService;
let proxy: FaultProxy;
/** Creates whose answer the proxy loses (the service commits them). */
let lose = 0;
const tmp = tempDir('cli-unconfirmed');
let n = 0;
const freshDb = () => path.join(tmp.dir, `local-${n++}.db`);

beforeAll(async () => {
  service = await startService();
  proxy = await startFaultProxy(
    service.url,
    (req) => (req.method === 'POST' && lose > 0 ? (lose--, 'lose') : 'pass'),
    { stripIdempotencyKey: true },
  );
});
afterAll(async () => {
  await proxy.close();
  await service.close();
  tmp.remove();
});

const jobs = () =>
  service.server.app.ctx.sqlite
    .prepare<[], { id: string }>('SELECT id FROM jobs ORDER BY seq')
    .all()
    .map((r) => r.id);
const job = JSON.stringify({ workflow_id: 'wf-ndvi-timeseries', project_id: 'prj-demo-crops' });

describe('eo outbox with a service that ignores Idempotency-Key', () => {
  it('a lost job is not resent: unconfirmed, listed with what was sent and when; confirm and resend', async () => {
    const db = freshDb();
    const flags = ['--db', db, '--url', proxy.url, '--key', service.key];
    const first = JSON.parse((await eo(['outbox', 'add', 'job', '--db', db, '--json', job])).stdout)
      .id as string;
    const second = JSON.parse(
      (await eo(['outbox', 'add', 'job', '--db', db, '--json', job])).stdout,
    ).id as string;
    const before = jobs();
    lose = 2;
    const flushed = await eo(['outbox', 'flush', ...flags]);
    expect(flushed.code).toBe(1);
    expect(JSON.parse(flushed.stdout)).toMatchObject({ sent: 0, unconfirmed: 2, remaining: 0 });
    expect(flushed.stderr).toContain(
      `unconfirmed job ${first}: network: may already be on the service`,
    );
    expect(flushed.stderr).toContain(`eo outbox confirm ${first} [--remote-id ID]`);
    const created = jobs().slice(before.length);
    expect(created).toHaveLength(2);

    // Flushing again sends nothing.
    expect(JSON.parse((await eo(['outbox', 'flush', ...flags])).stdout)).toMatchObject({
      sent: 0,
      unconfirmed: 0,
    });
    expect(jobs()).toHaveLength(before.length + 2);

    const table = await eo([
      'outbox',
      'list',
      '--db',
      db,
      '--state',
      'unconfirmed',
      '--format',
      'table',
    ]);
    expect(table.code).toBe(0);
    const [header, row] = table.stdout.split('\n');
    expect(header).toMatch(/STATE .*SENT AT .*INPUT .*LAST ERROR/);
    expect(row).toContain('unconfirmed');
    expect(row).toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
    expect(row).toContain('"workflow_id":"wf-ndvi-timeseries"');
    expect(table.stderr).toContain('2 unconfirmed: may already be on the service');
    const listed = JSON.parse((await eo(['outbox', 'list', '--db', db])).stdout) as OutboxEntry[];
    expect(listed[0]!.lastError).toMatchObject({ inDoubt: true });
    expect(listed[0]!.lastError!.attemptedAt).toBeGreaterThan(0);

    // retry is refused; confirm needs an id here (no candidate); then it is sent.
    expect((await eo(['outbox', 'retry', first, '--db', db])).stderr).toMatch(
      /may already be on the service: confirm it, resend it, or cancel it/,
    );
    const noId = await eo(['outbox', 'confirm', first, '--db', db]);
    expect(noId.code).toBe(1);
    expect(noId.stderr).toContain('give the id the service gave it');
    const confirmed = await eo([
      'outbox',
      'confirm',
      first,
      '--db',
      db,
      '--remote-id',
      created[0]!,
    ]);
    expect(confirmed.code).toBe(0);
    expect(JSON.parse(confirmed.stdout)).toMatchObject({ state: 'sent', remoteId: created[0] });
    // The user decides the second should go again after all (e.g. the service says so).
    const resent = await eo(['outbox', 'resend', second, '--db', db]);
    expect(JSON.parse(resent.stdout)).toMatchObject({ state: 'queued', lastError: null });
    const last = await eo(['outbox', 'flush', ...flags]);
    expect(last.code).toBe(0);
    expect(JSON.parse(last.stdout)).toMatchObject({ sent: 1, unconfirmed: 0, remaining: 0 });
    expect(jobs()).toHaveLength(before.length + 3);
  });

  it('--idempotency is checked; EO_IDEMPOTENCY=ignored holds against our own service', async () => {
    const db = freshDb();
    await eo(['outbox', 'add', 'job', '--db', db, '--json', job]);
    const bad = await eo([
      'outbox',
      'flush',
      '--db',
      db,
      '--url',
      proxy.url,
      '--key',
      service.key,
      '--idempotency',
      'maybe',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      '--idempotency (or EO_IDEMPOTENCY) must be auto, honoured, ignored',
    );
    // Straight to the service (it says it honours the key), one answer lost on the way.
    const lossy = await startFaultProxy(service.url, (req) =>
      req.method === 'POST' ? 'lose' : 'pass',
    );
    try {
      const before = jobs().length;
      const flushed = await eo(['outbox', 'flush', '--db', db, '--url', lossy.url], {
        env: { EO_API_KEY: service.key, EO_IDEMPOTENCY: 'ignored' },
      });
      expect(JSON.parse(flushed.stdout)).toMatchObject({ sent: 0, unconfirmed: 1 });
      expect(jobs().length).toBe(before + 1);
    } finally {
      await lossy.close();
    }
  });
});
