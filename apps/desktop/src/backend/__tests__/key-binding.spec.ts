/**
 * The API key is bound to the origin it was entered for: a new service URL on another origin
 * (a second port on 127.0.0.1 plays "another host", capturing every request) never receives
 * it, Settings asks for its key, coming back finds the first key kept, and plain http is refused
 * but for loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connectivity } from '../../shared/contract';
import { openDesktopStore } from '../local-store';
import { memorySecrets } from '../secrets';
import { startBackend, startService, tempDir, type TestService } from './harness';
import { startListener, startRecordingProxy, type Listener } from './listener';
import { taskingOrder } from './create-inputs';

let real: TestService;
/** The real service, through a recorder of the keys it receives. */
let service: { url: string; key: string; requests: Listener['requests'] };
let recorder: Listener;
let other: Listener;
beforeAll(async () => {
  real = await startService(20);
  recorder = await startRecordingProxy(real.url);
  service = { url: recorder.url, key: real.key, requests: recorder.requests };
  other = await startListener();
});
afterAll(async () => {
  await other?.close();
  await recorder?.close();
  await real?.close();
});

const state = (p: unknown) => (p as Connectivity).state;
const carrying = (key: string) =>
  other.requests.filter((r) => (r.authorization ?? '').includes(key));

describe('the API key and the service URL', () => {
  it('A -> B -> A: each origin receives only its own key, kept for it; Forget drops one', async () => {
    const t = startBackend();
    try {
      const online = t.waitFor('connectivity.changed', (p) => state(p) === 'online');
      await t.call('settings.update', { serviceUrl: service.url, apiKey: service.key });
      await online;

      // Another origin, no key given: the stored one is not its key.
      const unconfigured = t.waitFor('connectivity.changed', (p) => state(p) === 'unconfigured');
      const moved = await t.call('settings.update', { serviceUrl: other.url });
      expect(moved).toMatchObject({ serviceUrl: other.url, apiKeySet: false });
      await unconfigured;
      // Everything that would talk to the service.
      expect((await t.call('connectivity.check')).state).toBe('unconfigured');
      expect(await t.raw('sync.run', {})).toMatchObject({ error: { code: 'not_configured' } });
      expect(await t.raw('orders.quote', taskingOrder([{ name: 'x' }]))).toMatchObject({
        error: { code: 'not_configured' },
      });
      expect(await t.raw('created.refresh', {})).toMatchObject({
        error: { code: 'not_configured' },
      });
      await t.call('outbox.enqueue', { kind: 'job', input: { workflow_id: 'w', project_id: 'p' } });
      expect(await t.raw('outbox.flush', {})).toMatchObject({ error: { code: 'not_configured' } });
      await t.backend.idle();
      expect(carrying(service.key)).toEqual([]);
      expect(other.requests).toEqual([]);

      // Back to the first service: its key was kept for it, and works at once.
      const back = await t.call('settings.update', { serviceUrl: service.url });
      expect(back).toMatchObject({
        apiKeySet: true,
        apiKeyFor: new URL(service.url).origin,
        keptKeys: [new URL(service.url).origin],
      });
      expect((await t.call('connectivity.check')).state).toBe('online');

      // A key entered for the other origin goes there, and only that key.
      await t.call('settings.update', { serviceUrl: other.url, apiKey: 'eok_other' });
      expect((await t.call('connectivity.check')).state).toBe('unauthorized');
      expect(other.requests.length).toBeGreaterThan(0);
      expect(other.requests.every((r) => r.authorization?.includes('eok_other'))).toBe(true);
      expect(carrying(service.key)).toEqual([]);

      // Same origin, another path: the key stays.
      const pathed = await t.call('settings.update', { serviceUrl: `${other.url}/eo` });
      expect(pathed.apiKeySet).toBe(true);
      expect([...pathed.keptKeys].sort()).toEqual(
        [new URL(service.url).origin, new URL(other.url).origin].sort(),
      );
      // A -> B -> A: each service received its own key and nothing else.
      await t.call('settings.update', { serviceUrl: service.url });
      expect((await t.call('connectivity.check')).state).toBe('online');
      await t.backend.idle();
      expect(carrying(service.key)).toEqual([]);
      expect(other.requests.every((r) => r.authorization?.includes('eok_other'))).toBe(true);
      const accepted = service.requests.map((r) => r.authorization);
      expect(accepted.length).toBeGreaterThan(0);
      expect(accepted.every((a) => a?.includes(service.key))).toBe(true);

      // Forget the other service's key from the list: it is gone, the current one stays.
      const forgot = await t.call('settings.update', { forgetKey: new URL(other.url).origin });
      expect(forgot).toMatchObject({ apiKeySet: true, keptKeys: [new URL(service.url).origin] });
      expect(await t.raw('settings.update', { forgetKey: '' })).toMatchObject({
        ok: false,
        error: { code: 'invalid_argument' },
      });
    } finally {
      await t.close();
    }
  });

  it('a key entered before any service goes to the first service URL entered', async () => {
    const t = startBackend();
    try {
      expect((await t.call('settings.update', { apiKey: service.key })).apiKeySet).toBe(true);
      const online = t.waitFor('connectivity.changed', (p) => state(p) === 'online');
      expect((await t.call('settings.update', { serviceUrl: service.url })).apiKeySet).toBe(true);
      await online;
      // From then on it is that service's: another origin does not get it.
      expect((await t.call('settings.update', { serviceUrl: other.url })).apiKeySet).toBe(false);
      await t.backend.idle();
      expect(carrying(service.key)).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('plain http is refused but for this machine', async () => {
    const t = startBackend();
    try {
      for (const url of ['http://eo.example.com', 'http://10.0.0.5:8080', 'http://[::2]:80']) {
        const r = await t.raw('settings.update', { serviceUrl: url, apiKey: 'k' });
        expect(r, url).toMatchObject({
          ok: false,
          error: { code: 'invalid_argument', details: { issues: [{ path: 'serviceUrl' }] } },
        });
      }
      expect((await t.call('settings.get')).serviceUrl).toBeNull();
      for (const url of [
        'https://eo.example.com',
        'http://localhost:9',
        'http://[::1]:9',
        'http://127.3.2.1:9',
      ])
        expect((await t.call('settings.update', { serviceUrl: url })).serviceUrl).toBe(url);
    } finally {
      await t.close();
    }
  });

  it('a key stored by an older version stays with its service, never with plain http elsewhere', async () => {
    const dataDir = tempDir('eo-desktop-legacy-key-');
    const seed = (serviceUrl: string) => {
      const store = openDesktopStore(dataDir);
      store.saveSettings({ ...store.settings(), serviceUrl });
      store.close();
    };
    // A key and a URL as an older version left them: no binding recorded.
    seed(service.url);
    const first = startBackend({ dataDir, secrets: memorySecrets(service.key) });
    try {
      expect((await first.call('settings.get')).apiKeySet).toBe(true);
      expect((await first.call('connectivity.check')).state).toBe('online');
    } finally {
      await first.close();
    }
    // A plain-http URL to another host, stored before it was refused: the key is forgotten.
    const legacy = tempDir('eo-desktop-legacy-http-');
    const store = openDesktopStore(legacy);
    store.saveSettings({ ...store.settings(), serviceUrl: 'http://eo.example.com' });
    store.close();
    const legacySecrets = memorySecrets('eok_legacy');
    const second = startBackend({ dataDir: legacy, secrets: legacySecrets });
    try {
      expect(legacySecrets.get()).toBeNull();
      const c = await second.call('connectivity.check');
      expect(c.state).toBe('unconfigured');
      expect((await second.call('settings.get')).apiKeySet).toBe(false);
    } finally {
      await second.close();
    }
  });
});
