/**
 * "Work offline": while the switch is on, not one byte goes to the service (the counting door
 * in front of it sees none) through a flush, a sync, a quote, a refresh, "Check now" or the
 * watcher's ticks; calls that need the service say which switch to turn off; the mirror and the
 * outbox keep working; the switch survives a restart, and turning it off reconnects at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connectivity } from '../../shared/contract';
import { indexInput, taskingOrder } from './create-inputs';
import { startDoor } from './door';
import { errorOf, startBackend, startService, until, type TestService } from './harness';

let service: TestService;
beforeAll(async () => {
  service = await startService(20);
});
afterAll(async () => service?.close());

const state = (p: unknown) => (p as Connectivity).state;
/** The watcher's interval here: a running watcher would knock many times in the wait below. */
const TICK_MS = 20;

describe('work offline', () => {
  it('sends nothing to the service, refuses what needs it by the switch, and reconnects when off', async () => {
    const door = await startDoor(service.url);
    const opts = { connectivityIntervalMs: TICK_MS, connectivityOfflineIntervalMs: TICK_MS };
    let t = startBackend(opts);
    try {
      const online = t.waitFor('connectivity.changed', (p) => state(p) === 'online');
      await t.call('settings.update', { serviceUrl: door.url, apiKey: service.key });
      await online;
      const synced = t.waitFor('sync.finished');
      await t.call('sync.run', {});
      await synced;
      // The door counts: the watcher's ticks alone knock while online.
      await door.reset();
      await until('the watcher knocks while online', async () => (await door.bytes()) > 0);

      const working = t.waitFor('connectivity.changed', (p) => state(p) === 'working-offline');
      expect((await t.call('settings.update', { workOffline: true })).workOffline).toBe(true);
      const announced = (await working) as Connectivity;
      expect(announced.message).toMatch(/Work offline/);
      await t.backend.idle();
      await door.reset();

      // Everything offline keeps working: the mirror's search, queueing a free create.
      const found = await t.call('catalog.search', { limit: 5 });
      expect(found.items.length).toBeGreaterThan(0);
      const queued = await t.call('outbox.enqueue', {
        kind: 'index',
        input: indexInput('Queued while working offline'),
      });
      expect(queued.state).toBe('queued');

      // What needs the service is refused by the switch, not "enter the service URL".
      for (const [method, input] of [
        ['outbox.flush', {}],
        ['sync.run', {}],
        ['orders.quote', taskingOrder([{ name: 'Not asked' }])],
        ['created.refresh', undefined],
      ] as const) {
        const error = await errorOf(t, method, input);
        expect(error, method).toMatchObject({ code: 'working_offline' });
        expect(error.message, method).toMatch(/Turn off "Work offline"/);
      }
      const checked = await t.call('connectivity.check');
      expect(checked.state).toBe('working-offline');

      // Many watcher intervals pass: no tick, no auto-flush of the queued create, no follow-up.
      const quietUntil = Date.now() + 25 * TICK_MS;
      await until('25 watcher intervals', () => Date.now() > quietUntil);
      await t.backend.idle();
      expect(await door.bytes()).toBe(0);
      expect((await t.call('outbox.list', {})).counts.queued).toBe(1);

      // The switch is a setting: after a restart the app still works offline, silently.
      await t.backend.close();
      t = startBackend({ ...opts, dataDir: t.dataDir, secrets: t.secrets, settings: null });
      expect((await t.call('settings.get')).workOffline).toBe(true);
      expect((await t.call('connectivity.check')).state).toBe('working-offline');
      await t.backend.idle();
      expect(await door.bytes()).toBe(0);

      // Off: reconnected at once, the first check announced, the queued create sent.
      const back = t.waitFor('connectivity.changed', (p) => state(p) === 'online');
      const sent = t.waitFor('outbox.finished');
      await t.call('settings.update', { workOffline: false });
      await back;
      expect(await sent).toMatchObject({ sent: 1 });
      expect(await door.bytes()).toBeGreaterThan(0);
    } finally {
      await t.close();
      await door.close();
    }
  });

  it('takes the switch only as a boolean (validated at the boundary)', async () => {
    const t = startBackend();
    try {
      const r = await t.raw('settings.update', { workOffline: 'yes' });
      expect(r).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
      expect((await t.call('settings.get')).workOffline).toBe(false);
    } finally {
      await t.close();
    }
  });
});
