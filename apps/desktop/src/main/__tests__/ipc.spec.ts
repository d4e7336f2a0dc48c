import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startBackend, tempDir } from '../../backend/__tests__/harness';
import { holdDataFolder } from '../../backend/data-lock';
import { launchBackend } from '../../backend/launch';
import { memorySecrets } from '../../backend/secrets';
import type { CallResult } from '../../shared/contract';
import { createBackendHost, DataFolderInUseError } from '../backend-host';
import type { FromBackend, PortLike, ToBackend } from '../backend-protocol';
import { serveBackend } from '../backend-serve';
import { registerIpc, relayEvent, type IpcEventLike } from '../ipc';

// The relay must not need Electron at all; any import of it would fail loudly.
vi.mock('electron', () => {
  throw new Error('the IPC relay must not import electron');
});

function fakeIpcMain() {
  const handlers = new Map<string, (event: IpcEventLike, ...args: unknown[]) => unknown>();
  return {
    handle: (ch: string, fn: (event: IpcEventLike, ...args: unknown[]) => unknown) =>
      handlers.set(ch, fn),
    removeHandler: (ch: string) => handlers.delete(ch),
    invoke: (event: IpcEventLike, ...args: unknown[]) =>
      handlers.get('eo:call')!(event, ...args) as Promise<CallResult<unknown>>,
  };
}

const trusted: IpcEventLike = { sender: { id: 1 }, senderFrame: { url: 'file:///app/index.html' } };

describe('IPC relay in main', () => {
  it('relays a contract call with its argument as sent: the backend validates it', async () => {
    const call = vi.fn(async (_m: string, _i: unknown): Promise<CallResult<unknown>> => ({
      ok: true,
      value: 'passed',
    }));
    const ipc = fakeIpcMain();
    registerIpc(ipc, { call, isTrustedSender: () => true });
    const raw = { bbox: [0, 0, 1, 1], extra: true };
    expect(await ipc.invoke(trusted, 'catalog.search', raw)).toEqual({ ok: true, value: 'passed' });
    expect(call).toHaveBeenCalledTimes(1);
    expect(call.mock.calls[0]).toEqual(['catalog.search', raw]);
  });

  it('refuses unknown methods, extra arguments and untrusted senders', async () => {
    const call = vi.fn();
    const ipc = fakeIpcMain();
    registerIpc(ipc, { call, isTrustedSender: (e) => e.sender.id === 1 });
    expect(await ipc.invoke(trusted, 'fs.readFile', '/etc/passwd')).toMatchObject({
      ok: false,
      error: { code: 'unknown_method' },
    });
    expect(await ipc.invoke(trusted, '__proto__', {})).toMatchObject({
      ok: false,
      error: { code: 'unknown_method' },
    });
    expect(await ipc.invoke(trusted, 'settings.get', {}, 'extra')).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument' },
    });
    expect(await ipc.invoke({ sender: { id: 2 } }, 'settings.get', {})).toMatchObject({
      ok: false,
    });
    expect(call).not.toHaveBeenCalled();
  });

  it('a bad argument is refused by the backend behind it, with the field path', async () => {
    const t = startBackend();
    cleanups.push(() => t.close());
    const ipc = fakeIpcMain();
    registerIpc(ipc, { call: (m, i) => t.backend.dispatch(m, i), isTrustedSender: () => true });
    const bad = await ipc.invoke(trusted, 'catalog.footprints', { bbox: [0, 0, 200, 1] });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    if (!bad.ok) expect(bad.error.details?.issues?.map((i) => i.path)).toContain('bbox.2');
  });

  it('relays only contract events with valid payloads', () => {
    const send = vi.fn();
    expect(relayEvent(send, 'outbox.changed', { pending: 1 })).toBe(true);
    expect(relayEvent(send, 'outbox.changed', { pending: -1 })).toBe(false);
    expect(relayEvent(send, 'secret.set', { key: 'k' })).toBe(false);
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenCalledWith('eo:event', 'outbox.changed', { pending: 1 });
  });
});

/** Two connected ports, as Electron's utilityProcess channel (structured clone included). */
function portPair(): [PortLike<FromBackend, ToBackend>, PortLike<ToBackend, FromBackend>] {
  const a = new EventEmitter();
  const b = new EventEmitter();
  const side = <In, Out>(rx: EventEmitter, tx: EventEmitter): PortLike<In, Out> => ({
    postMessage: (m) => setImmediate(() => tx.emit('m', structuredClone(m))),
    onMessage: (l) => {
      rx.on('m', l);
      return () => rx.off('m', l);
    },
  });
  return [side(a, b), side(b, a)];
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe('main <-> backend process', () => {
  it('starts the backend with the key main decrypted, relays calls and events, and stores key changes', async () => {
    const dataDir = tempDir('eo-main-host-');
    const [mainSide, backendSide] = portPair();
    serveBackend(backendSide, (o) => launchBackend({ ...o, embedded: false }));
    const mainSecrets = memorySecrets('eok_from_safe_storage', 'os-keychain');
    const host = createBackendHost(mainSide, mainSecrets, () => undefined);
    const events: string[] = [];
    host.onEvent((e) => events.push(e));
    expect(await host.init({ dataDir, version: '1.2.3' })).toEqual({ embeddedServiceUrl: null });
    cleanups.push(async () => {
      await host.shutdown();
    });

    expect(await host.call('app.info', undefined)).toEqual({
      ok: true,
      value: { version: '1.2.3', mode: 'electron', embeddedServiceUrl: null },
    });
    const s = await host.call('settings.get', undefined);
    // How main keeps the key crosses with it, for Settings to say.
    expect(s).toMatchObject({ ok: true, value: { apiKeySet: true, apiKeyStorage: 'os-keychain' } });
    expect(JSON.stringify(s)).not.toContain('eok_from_safe_storage');

    // A service nobody listens on: the backend says offline, through an event.
    await host.call('settings.update', { serviceUrl: 'http://127.0.0.1:9', apiKey: 'eok_new' });
    // Main stores the keyring (keys per service, keyring.ts), encrypted as one secret.
    await vi.waitFor(() =>
      expect(JSON.parse(mainSecrets.get() ?? 'null')).toEqual({
        version: 1,
        keys: { 'http://127.0.0.1:9': 'eok_new' },
        unbound: null,
      }),
    );
    await vi.waitFor(() => expect(events).toContain('connectivity.changed'), { timeout: 10_000 });
    await host.call('settings.update', { apiKey: null });
    await vi.waitFor(() => expect(mainSecrets.get()).toBeNull());
    expect(await host.call('settings.update', { tileUrl: 'nope' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument' },
    });
  });

  it('answers every pending call when the backend fails to start', async () => {
    const [mainSide, backendSide] = portPair();
    serveBackend(backendSide, async () => {
      throw new Error('disk full');
    });
    const host = createBackendHost(mainSide, memorySecrets(), () => undefined);
    const dataDir = tempDir('eo-main-fails-');
    await expect(host.init({ dataDir, version: '0' })).rejects.toThrow(/disk full/);
    expect(await host.call('settings.get', undefined)).toMatchObject({
      ok: false,
      error: { code: 'internal' },
    });
  });

  it('refuses to start on a data folder browser mode holds, naming it with its address', async () => {
    const dataDir = tempDir('eo-main-in-use-');
    const browser = holdDataFolder(dataDir, 'browser');
    cleanups.push(() => browser.release());
    browser.describe({ url: 'http://127.0.0.1:5183/#token=abc' });
    const [mainSide, backendSide] = portPair();
    let launched = 0;
    serveBackend(backendSide, (o) => {
      launched++;
      return launchBackend({ ...o, embedded: false });
    });
    const host = createBackendHost(mainSide, memorySecrets(), () => undefined);
    const refused = await host.init({ dataDir, version: '0' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(DataFolderInUseError);
    expect((refused as Error).message).toContain(
      `in use by EO Field Desk in browser mode (pid ${process.pid}`,
    );
    expect((refused as Error).message).toContain('open at http://127.0.0.1:5183/#token=abc');
    // Refused before the backend opened anything of the folder.
    expect(launched).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'desktop.sqlite'))).toBe(false);
  });

  it('holds the data folder while it runs: browser mode (or a flush) is refused, then let in', async () => {
    const dataDir = tempDir('eo-main-holds-');
    const [mainSide, backendSide] = portPair();
    serveBackend(backendSide, (o) => launchBackend({ ...o, embedded: false }));
    const host = createBackendHost(mainSide, memorySecrets(), () => undefined);
    await host.init({ dataDir, version: '0' });
    expect(() => holdDataFolder(dataDir, 'browser')).toThrow(
      `in use by the EO Field Desk app (pid ${process.pid}`,
    );
    await host.shutdown();
    holdDataFolder(dataDir, 'browser').release();
  });

  it('the harness backend and the relay agree on the contract', async () => {
    const t = startBackend();
    cleanups.push(() => t.close());
    const ipc = fakeIpcMain();
    registerIpc(ipc, { call: (m, i) => t.backend.dispatch(m, i), isTrustedSender: () => true });
    expect(await ipc.invoke(trusted, 'sync.status', undefined)).toMatchObject({
      ok: true,
      value: { running: false },
    });
  });
});
