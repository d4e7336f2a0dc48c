import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { ContractError } from '../../../shared/contract';
import { createMemoryBridge, type MemoryBridge } from '../../__tests__/memory-bridge';
import { provideBridge } from '../bridge-provider';
import { CONNECTIVITY_TEXT, useConnectivityStore } from '../connectivity';
import { syncErrorHint, useSyncStore } from '../sync-store';

let bridge: MemoryBridge;

beforeEach(() => {
  setActivePinia(createPinia());
  bridge = createMemoryBridge();
  provideBridge(bridge);
});

describe('sync store', () => {
  it('follows progress events to a fraction and ends with the finished status', async () => {
    const sync = useSyncStore();
    const stop = sync.listen();
    await sync.refresh();
    expect(sync.running).toBe(false);
    expect(sync.fraction).toBeNull();
    await sync.run();
    expect(sync.running).toBe(true);
    bridge.emit('sync.progress', { resource: 'orders', seen: 12, total: 12 });
    bridge.emit('sync.progress', { resource: 'catalogs', seen: 20, total: 80 });
    expect(sync.current).toBe('catalogs');
    // orders done (1) + catalogs a quarter (0.25), over two resources.
    expect(sync.fraction).toBeCloseTo(0.625, 5);
    bridge.emit('sync.finished', {
      running: false,
      resources: [
        {
          resource: 'orders',
          lastCompleteAt: '2024-05-17T10:00:00.000Z',
          lastError: null,
          count: 12,
        },
        {
          resource: 'catalogs',
          lastCompleteAt: null,
          lastError: { code: 'unauthorized', message: 'API key rejected (401)', hint: '' },
          count: 20,
        },
      ],
    });
    expect(sync.running).toBe(false);
    expect(sync.lastCompleteAt).toBe('2024-05-17T10:00:00.000Z');
    expect(sync.failed.map((r) => r.resource)).toEqual(['catalogs']);
    stop();
    expect(bridge.listenerCount('sync.progress')).toBe(0);
  });

  it('says what to do when a sync cannot start', async () => {
    const sync = useSyncStore();
    bridge.failWith('sync.run', new ContractError('not_configured', 'no service URL set'));
    await sync.run();
    expect(sync.error?.hint).toMatch(/service URL and your API key/);
    bridge.failWith('sync.run', new ContractError('busy', 'sync running'));
    await sync.run();
    expect(sync.error?.title).toBe('A sync is already running');
    expect(sync.running).toBe(false);
  });

  it('uses the backend’s hint, or one that fits the error code', () => {
    expect(syncErrorHint({ code: 'x', message: 'm', hint: 'Do this.' })).toBe('Do this.');
    expect(syncErrorHint({ code: 'unauthorized', message: 'm', hint: '' })).toMatch(/API key/);
    expect(syncErrorHint({ code: 'network', message: 'm', hint: '' })).toMatch(/network/);
  });
});

describe('connectivity store', () => {
  it('tells online only when the backend says the service accepted the key', async () => {
    const c = useConnectivityStore();
    expect(c.text.label).toBe('Checking…');
    await c.check();
    expect(c.online).toBe(true);
    const stop = c.listen();
    bridge.emit('connectivity.changed', {
      state: 'unauthorized',
      checkedAt: '2024-05-17T10:00:00.000Z',
      since: '2024-05-17T10:00:00.000Z',
      message: 'HTTP 401',
    });
    expect(c.online).toBe(false);
    expect(c.text).toEqual(CONNECTIVITY_TEXT.unauthorized);
    bridge.emit('connectivity.changed', {
      state: 'offline',
      checkedAt: '2024-05-17T10:01:00.000Z',
      since: '2024-05-17T10:01:00.000Z',
    });
    expect(c.text.label).toBe('Offline');
    stop();
  });

  it('keeps an event that arrived while a check was answered, when the event is newer', async () => {
    const c = useConnectivityStore();
    const stop = c.listen();
    bridge.connectivity = {
      state: 'online',
      checkedAt: '2024-05-17T08:00:00.000Z',
      since: '2024-05-17T08:00:00.000Z',
    };
    const checked = c.check();
    bridge.emit('connectivity.changed', {
      state: 'offline',
      checkedAt: '2024-05-17T08:00:05.000Z',
      since: '2024-05-17T08:00:05.000Z',
      message: 'the network went away',
    });
    await checked;
    expect(c.state).toBe('offline');
    stop();
  });
});
