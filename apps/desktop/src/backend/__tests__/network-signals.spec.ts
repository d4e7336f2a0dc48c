/**
 * `connectivity.networkChanged`: the operating system's network signals (the page's
 * online/offline events, resume from sleep) bring the watcher's next check forward. The
 * watcher here ticks once a minute and nothing else sends requests, so only the signal can
 * explain a change within the test; the signal itself never sets the state (the check does).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connectivity } from '../../shared/contract';
import { startDoor } from './door';
import { startBackend, startService, type TestService } from './harness';

let service: TestService;
beforeAll(async () => {
  service = await startService(20);
});
afterAll(async () => service?.close());

const state = (p: unknown) => (p as Connectivity).state;

describe('network signals', () => {
  it('a signal has the service checked soon; the check decides, whatever the signal says', async () => {
    const door = await startDoor(service.url);
    const t = startBackend();
    try {
      await t.call('settings.update', { serviceUrl: door.url, apiKey: service.key });
      expect((await t.call('connectivity.check')).state).toBe('online');
      await t.backend.idle();

      // "online" from the OS while the service is gone: the check finds it offline.
      door.set(false);
      const offline = t.waitFor('connectivity.changed', (p) => state(p) === 'offline', {
        what: 'offline after a network signal (the watcher ticks once a minute)',
        timeoutMs: 15_000,
      });
      expect(await t.call('connectivity.networkChanged', { reason: 'online' })).toEqual({
        scheduled: true,
      });
      // How bursts coalesce is the watcher's (manual clock: @eo/sync connectivity-signal.spec.ts).
      expect(((await offline) as Connectivity).message).toMatch(/cannot be reached/);

      door.set(true);
      const online = t.waitFor('connectivity.changed', (p) => state(p) === 'online', {
        what: 'online after the machine woke (the watcher ticks once a minute)',
        timeoutMs: 15_000,
      });
      expect(await t.call('connectivity.networkChanged', { reason: 'resume' })).toEqual({
        scheduled: true,
      });
      await online;
    } finally {
      await t.close();
      await door.close();
    }
  });

  it('working offline: a signal asks nothing', async () => {
    const t = startBackend();
    try {
      await t.call('settings.update', {
        serviceUrl: service.url,
        apiKey: service.key,
        workOffline: true,
      });
      expect(await t.call('connectivity.networkChanged', { reason: 'online' })).toEqual({
        scheduled: false,
      });
      expect((await t.call('connectivity.check')).state).toBe('working-offline');
    } finally {
      await t.close();
    }
  });
});
