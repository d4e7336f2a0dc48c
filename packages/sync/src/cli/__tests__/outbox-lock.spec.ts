/**
 * One sender at a time on a mirror: `eo outbox flush` holds the mirror's lock (db/mirror-lock.ts)
 * while it runs. A second flush, or the desktop app / browser mode, on the same database refuses
 * with a message naming the one that runs, and sends nothing; a flush killed with -9 leaves no
 * lock behind. (Two at once sent queued creates twice: only the Idempotency-Key absorbed them.)
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockMirror, MirrorInUseError } from '../../db/mirror-lock';
import { tempDir } from '../../db/__tests__/temp';
import { startFaultProxy } from '../../__tests__/fault-proxy';
import {
  orderInput,
  serviceOrders,
  startService,
  testClient,
  type TestService,
} from '../../outbox/__tests__/service';
import { eo } from './run-eo';
import { spawnEo } from './spawn-eo';

let service: TestService;
const tmp = tempDir('cli-outbox-lock');
beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await service.close();
  tmp.remove();
});

async function queuedOrder(db: string, name: string): Promise<void> {
  const json = JSON.stringify(orderInput(name));
  expect((await eo(['outbox', 'add', 'order', '--db', db, '--json', json])).code).toBe(0);
}

const ordersNamed = async (name: string) =>
  (await serviceOrders(testClient(service.url, service.key))).filter((o) => o.name === name).length;

describe('eo outbox flush and the mirror lock', () => {
  it('refuses while the desktop app or browser mode holds the mirror, naming it; sends once let in', async () => {
    const db = path.join(tmp.dir, 'held.db');
    await queuedOrder(db, 'Lock held by browser mode');
    const env = { EO_DB: db, EO_URL: service.url, EO_API_KEY: service.key };
    const browser = lockMirror(db, { mode: 'browser' });
    browser.describe({ url: 'http://127.0.0.1:5183/#token=t0k' });
    const refused = await eo(['outbox', 'flush', '--progress', 'off'], { env });
    browser.release();
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `eo outbox flush: ${path.resolve(db)} is in use by EO Field Desk in browser mode (pid ${process.pid}, since ${refusedSince(refused.stderr)} UTC), open at http://127.0.0.1:5183/#token=t0k; one program at a time may use it: use that one, or stop it first\n`,
    );
    expect(await ordersNamed('Lock held by browser mode')).toBe(0);

    const sent = await eo(['outbox', 'flush', '--progress', 'off'], { env });
    expect(sent.code, sent.stderr).toBe(0);
    expect(await ordersNamed('Lock held by browser mode')).toBe(1);
  });

  it('a second flush is refused while one runs; one killed with -9 leaves no lock', async () => {
    const db = path.join(tmp.dir, 'two-flushes.db');
    await queuedOrder(db, 'Two flushes');
    // The running flush's create hangs at the proxy: it holds the lock, sending.
    let arrived!: () => void;
    const sending = new Promise<void>((resolve) => (arrived = resolve));
    const proxy = await startFaultProxy(service.url, (req) => {
      if (req.method !== 'POST') return 'pass';
      arrived();
      return 'hang';
    });
    const first = spawnEo(['outbox', 'flush', '--progress', 'off'], {
      EO_DB: db,
      EO_URL: proxy.url,
      EO_API_KEY: service.key,
    });
    try {
      const ended = first.exited.then((e) => {
        throw new Error(`the first flush ended (${JSON.stringify(e)}): ${first.stderr()}`);
      });
      await Promise.race([sending, ended]);
      const env = { EO_DB: db, EO_URL: service.url, EO_API_KEY: service.key };
      const second = await eo(['outbox', 'flush', '--progress', 'off'], { env });
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(
        `is in use by \`eo outbox flush\` (pid ${first.child.pid}, since `,
      );
      expect(() => lockMirror(db, { mode: 'electron' })).toThrow(MirrorInUseError);
      expect(await ordersNamed('Two flushes')).toBe(0);
      ended.catch(() => undefined);
    } finally {
      first.child.kill('SIGKILL');
      await first.exited;
      await proxy.close();
    }
    // Killed mid-send: the next flush gets in and sends it (with its key: once).
    const env = { EO_DB: db, EO_URL: service.url, EO_API_KEY: service.key };
    const next = await eo(['outbox', 'flush', '--progress', 'off'], { env });
    expect(next.code, next.stderr).toBe(0);
    expect(await ordersNamed('Two flushes')).toBe(1);
  }, 60_000);
});

/** The `since` time the refusal printed (the test compares the rest of the message exactly). */
function refusedSince(stderr: string): string {
  const m = /since (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) UTC/.exec(stderr);
  if (!m) throw new Error(`no time in: ${stderr}`);
  return m[1]!;
}
