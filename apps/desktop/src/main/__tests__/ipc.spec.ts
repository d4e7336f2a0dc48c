import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startBackend, tempDir } from '../../backend/__tests__/harness';
import { launchBackend } from '../../backend/launch';
import { memorySecrets } from '../../backend/secrets';
import { METHODS, type CallResult } from '../../shared/contract';
import { createBackendHost } from '../backend-host';
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

/** A good and a bad argument for every method: the bad one must never reach the backend. */
const CASES: Record<string, { good: unknown; bad: unknown; path: string }> = {
  'app.info': { good: undefined, bad: { x: 1 }, path: '' },
  'settings.get': { good: {}, bad: [], path: '' },
  'settings.update': {
    good: { syncIntervalMinutes: 5 },
    bad: { syncIntervalMinutes: 1441 },
    path: 'syncIntervalMinutes',
  },
  'mirror.clear': { good: undefined, bad: 'all', path: '' },
  'connectivity.check': { good: undefined, bad: { force: true }, path: '' },
  'sync.run': {
    good: { resources: ['orders'] },
    bad: { resources: ['orders', 'secrets'] },
    path: 'resources.1',
  },
  'sync.cancel': { good: {}, bad: { now: 1 }, path: '' },
  'sync.status': { good: undefined, bad: 1, path: '' },
  'catalog.search': { good: { limit: 3 }, bad: { limit: 3, extra: true }, path: '' },
  'catalog.footprints': {
    good: { bbox: [0, 0, 1, 1] },
    bad: { bbox: [0, 0, 200, 1] },
    path: 'bbox.2',
  },
  'catalog.get': { good: { id: 'x' }, bad: { id: '' }, path: 'id' },
  'savedSearches.list': { good: {}, bad: { all: true }, path: '' },
  'savedSearches.save': {
    good: { name: 'n', query: {} },
    bad: { name: '', query: {} },
    path: 'name',
  },
  'savedSearches.remove': { good: { id: 'a' }, bad: { id: ['a'] }, path: 'id' },
  'tiles.get': { good: { z: 0, x: 0, y: 0 }, bad: { z: 23, x: 0, y: 0 }, path: 'z' },
  'orders.list': {
    good: { status: ['PAID'], created: { from: '2024-01-01T00:00:00Z' } },
    bad: { status: ['SHIPPED'] },
    path: 'status.0',
  },
  'orderItems.list': {
    good: { orderIds: ['o1', 'o2'], areaKm2: { min: 1, max: 10 }, text: 'field' },
    bad: { orderIds: ['o1'], areaKm2: { min: -1 } },
    path: 'areaKm2.min',
  },
  'orders.quote': {
    good: {
      order_items: [
        {
          project_id: 'prj-demo-crops',
          name: 'Field A',
          geometry: {
            type: 'FeatureCollection',
            features: [
              {
                type: 'Feature',
                properties: {},
                geometry: {
                  type: 'Polygon',
                  coordinates: [
                    [
                      [11.3, 44.45],
                      [11.4, 44.45],
                      [11.4, 44.55],
                      [11.3, 44.45],
                    ],
                  ],
                },
              },
            ],
          },
          item_ids: ['AUR1_20240517T093012_L2A_R042_F0123'],
        },
      ],
    },
    bad: { order_items: [] },
    path: 'order_items',
  },
  'aois.list': { good: { text: 'vine' }, bad: { status: ['done'] }, path: 'status.0' },
  'aois.assets': { good: { aoiId: 'aoi-1' }, bad: { aoiId: '' }, path: 'aoiId' },
  'indices.list': { good: { type: 'custom' }, bad: { type: 'builtin' }, path: 'type' },
  'visualizations.list': { good: undefined, bad: { aoiId: 'a' }, path: '' },
  'deliveries.list': { good: {}, bad: [], path: '' },
  'jobs.list': { good: undefined, bad: 'all', path: '' },
  'created.refresh': { good: {}, bad: { force: true }, path: '' },
  'lookups.get': { good: undefined, bad: { kind: 'projects' }, path: '' },
  'outbox.list': { good: { states: ['queued', 'failed'] }, bad: { states: [] }, path: 'states' },
  'outbox.enqueue': {
    good: { kind: 'job', input: { workflow_id: 'wf-cloud-mask', project_id: 'prj-demo-crops' } },
    bad: { kind: 'job', input: { workflow_id: 'wf-cloud-mask' } },
    path: 'input.project_id',
  },
  'outbox.edit': { good: { id: 'e1', input: { name: 'x' } }, bad: { id: 'e1' }, path: 'input' },
  'outbox.retry': { good: { id: 'e1' }, bad: { id: '' }, path: 'id' },
  'outbox.cancel': { good: { id: 'e1' }, bad: {}, path: 'id' },
  'outbox.confirm': {
    good: { id: 'e1', remoteId: 'job-1' },
    bad: { id: 'e1', remoteId: '' },
    path: 'remoteId',
  },
  'outbox.resend': { good: { id: 'e1' }, bad: { id: 7 }, path: 'id' },
  'outbox.flush': { good: undefined, bad: { now: true }, path: '' },
};

describe('IPC relay in main', () => {
  it('has a case for every contract method', () => {
    expect(Object.keys(CASES).sort()).toEqual([...METHODS].sort());
  });

  it.each(Object.entries(CASES))(
    '%s: bad arguments are refused with their path, never passed on',
    async (method, c) => {
      const call = vi.fn(async (_m: string, _i: unknown): Promise<CallResult<unknown>> => ({
        ok: true,
        value: 'passed',
      }));
      const ipc = fakeIpcMain();
      registerIpc(ipc, { call, isTrustedSender: () => true });
      const bad = await ipc.invoke(trusted, method, c.bad);
      expect(bad.ok).toBe(false);
      if (!bad.ok) {
        expect(bad.error.code).toBe('invalid_argument');
        if (c.path) expect(bad.error.details?.issues?.map((i) => i.path)).toContain(c.path);
      }
      expect(call).not.toHaveBeenCalled();
      expect(await ipc.invoke(trusted, method, c.good)).toEqual({ ok: true, value: 'passed' });
      expect(call).toHaveBeenCalledTimes(1);
      expect(call.mock.calls[0]![0]).toBe(method);
    },
  );

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

  it('passes on the parsed argument (defaults applied), not the raw object', async () => {
    const call = vi.fn(async (_m: string, _i: unknown): Promise<CallResult<unknown>> => ({
      ok: true,
      value: null,
    }));
    const ipc = fakeIpcMain();
    registerIpc(ipc, { call, isTrustedSender: () => true });
    const raw = { bbox: [0, 0, 1, 1] };
    await ipc.invoke(trusted, 'catalog.search', raw);
    const passed = call.mock.calls[0]![1] as Record<string, unknown>;
    expect(passed).not.toBe(raw);
    expect(passed).toMatchObject({ bbox: [0, 0, 1, 1], offset: 0 });
    expect(typeof passed.limit).toBe('number');
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
    await vi.waitFor(() => expect(mainSecrets.get()).toBe('eok_new'));
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
    await expect(host.init({ dataDir: '/nonexistent', version: '0' })).rejects.toThrow(/disk full/);
    expect(await host.call('settings.get', undefined)).toMatchObject({
      ok: false,
      error: { code: 'internal' },
    });
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
