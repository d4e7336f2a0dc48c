/**
 * Connectivity across a change of service: a check of the replaced connection that answers
 * late must not overwrite the new connection's state, and the new connection's first result is
 * announced even when the state reads the same as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connectivity } from '../../shared/contract';
import { startBackend, startService, until, type TestService } from './harness';
import { startListener, type Listener } from './listener';
import { taskingOrder } from './create-inputs';

let service: TestService;
let slow: Listener;
beforeAll(async () => {
  service = await startService(20);
  slow = await startListener({ hold: true });
});
afterAll(async () => {
  await slow?.close();
  await service?.close();
});

const state = (p: unknown) => (p as Connectivity).state;

describe('connectivity when the service changes', () => {
  it("drops the replaced connection's late result and announces the new one's first", async () => {
    // A long check timeout: the slow service's check is still waiting when the URL changes back.
    const t = startBackend({ connectivityTimeoutMs: 30_000 });
    try {
      const online = t.waitFor('connectivity.changed', (p) => state(p) === 'online', {
        what: 'online after the first setup',
      });
      await t.call('settings.update', { serviceUrl: service.url, apiKey: service.key });
      await online;

      // To a service that does not answer yet: its checks wait (the state still reads online).
      await t.call('settings.update', { serviceUrl: slow.url, apiKey: 'eok_slow' });
      await until('the slow service received a check', () => slow.requests.length > 0);

      // Back to the good service: its first result is announced, though the state read online.
      const back = t.waitFor('connectivity.changed', (p) => state(p) === 'online', {
        what: 'online again after switching back',
      });
      await t.call('settings.update', { serviceUrl: service.url, apiKey: service.key });
      await back;
      const announced = t.events.length;

      // The slow service now refuses the key: a result about a connection that is gone.
      slow.release(401);
      await t.backend.idle();
      // Checks of the current connection are announced too (each one): all of them online.
      const later = t.events.slice(announced).filter((e) => e.event === 'connectivity.changed');
      expect(later.map((e) => state(e.payload)).filter((s) => s !== 'online')).toEqual([]);
      expect((await t.call('connectivity.check')).state).toBe('online');
    } finally {
      await t.close();
    }
  });

  it("a quote asked of a replaced service ends with it, not with that service's late answer", async () => {
    const held = await startListener({ hold: true });
    const t = startBackend();
    try {
      await t.call('settings.update', { serviceUrl: held.url, apiKey: 'k' });
      const quote = t.raw('orders.quote', taskingOrder([{ name: 'Quote' }]));
      await until('the held service received the quote', () =>
        held.requests.some((r) => r.url.startsWith('/v0/orders')),
      );
      await t.call('settings.update', { serviceUrl: service.url, apiKey: service.key });
      // Its late answer (a refused key) says nothing about the service now configured.
      held.release(401);
      const r = await quote;
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error.code).toBe('offline');
      expect(r.error.message).toMatch(/changed while the quote was asked for/);
    } finally {
      await t.close();
      await held.close();
    }
  });
});
