/**
 * The indicator tells the truth between the watcher's ticks: every check is announced with its
 * time (the screens' "checked" is the last check, not the last change), and what the app's own
 * requests meet (no answer while it reads online, an answer while it reads offline) has the
 * service checked at once. The watcher here ticks once a minute, so only that can explain a
 * change within the test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connectivity } from '../../shared/contract';
import { taskingOrder } from './create-inputs';
import { startDoor } from './door';
import { startBackend, startService, until, type TestService } from './harness';

let service: TestService;
beforeAll(async () => {
  service = await startService(20);
});
afterAll(async () => service?.close());

const state = (p: unknown) => (p as Connectivity).state;

describe('connectivity between the watcher ticks', () => {
  it('announces every check with its time; "since" stays while the state reads the same', async () => {
    const t = startBackend();
    try {
      await t.call('settings.update', { serviceUrl: service.url, apiKey: service.key });
      const first = await t.call('connectivity.check');
      expect(first.state).toBe('online');
      // The watcher's first check (and the one the settings change asked for) are over.
      await t.backend.idle();
      // The next check is a later millisecond than this one (so its time can differ).
      await until('a millisecond later', () => Date.now() > Date.parse(first.checkedAt));
      const before = t.events.filter((e) => e.event === 'connectivity.changed').length;
      const second = await t.call('connectivity.check');
      const announced = t.events.filter((e) => e.event === 'connectivity.changed');
      expect(announced).toHaveLength(before + 1);
      expect(announced.at(-1)!.payload).toEqual(second);
      expect(second.checkedAt > first.checkedAt).toBe(true);
      expect(second.since).toBe(first.since);
    } finally {
      await t.close();
    }
  });

  it('a request that gets no answer has the service checked at once, and one answered brings it back', async () => {
    const door = await startDoor(service.url);
    const t = startBackend();
    try {
      await t.call('settings.update', { serviceUrl: door.url, apiKey: service.key });
      expect((await t.call('connectivity.check')).state).toBe('online');

      door.set(false);
      const offline = t.waitFor('connectivity.changed', (p) => state(p) === 'offline', {
        what: 'offline after a quote found no service (the watcher ticks once a minute)',
        timeoutMs: 15_000,
      });
      const quote = await t.raw('orders.quote', taskingOrder([{ name: 'Nobody there' }]));
      expect(quote.ok).toBe(false);
      const down = (await offline) as Connectivity;
      expect(down.message).toMatch(/cannot be reached/);
      expect(down.message).not.toMatch(/GET \/v0/);

      door.set(true);
      const online = t.waitFor('connectivity.changed', (p) => state(p) === 'online', {
        what: 'online after a quote was answered while the app read offline',
        timeoutMs: 15_000,
      });
      const answered = await t.raw('orders.quote', taskingOrder([{ name: 'Back again' }]));
      expect(answered.ok).toBe(true);
      await online;
    } finally {
      await t.close();
      await door.close();
    }
  });
});
