import { beforeEach, describe, expect, it, vi } from 'vitest';

const exposed: Record<string, unknown> = {};
const listeners = new Map<string, Set<(...a: unknown[]) => void>>();
const invoke = vi.fn();

vi.mock('electron', () => ({
  contextBridge: {
    exposeInMainWorld: (key: string, api: unknown) => {
      exposed[key] = api;
    },
  },
  ipcRenderer: {
    invoke: (...a: unknown[]) => invoke(...a),
    on: (ch: string, fn: (...a: unknown[]) => void) => {
      if (!listeners.has(ch)) listeners.set(ch, new Set());
      listeners.get(ch)!.add(fn);
    },
    removeListener: (ch: string, fn: (...a: unknown[]) => void) => listeners.get(ch)?.delete(fn),
  },
}));

type Api = {
  call(m: unknown, i?: unknown): Promise<unknown>;
  on(e: unknown, fn: unknown): () => void;
};

async function loadApi(): Promise<Api> {
  await import('../index');
  return exposed.eo as Api;
}

beforeEach(() => invoke.mockReset());

describe('preload', () => {
  it('exposes exactly { call, on } as window.eo, and nothing else', async () => {
    const api = await loadApi();
    expect(Object.keys(exposed)).toEqual(['eo']);
    expect(Object.keys(api).sort()).toEqual(['call', 'on']);
  });

  it('sends contract calls over eo:call and returns the value', async () => {
    const api = await loadApi();
    invoke.mockResolvedValueOnce({ ok: true, value: { total: 0, items: [] } });
    await expect(api.call('catalog.search', { limit: 5 })).resolves.toEqual({
      total: 0,
      items: [],
    });
    expect(invoke).toHaveBeenCalledWith('eo:call', 'catalog.search', { limit: 5 });
  });

  it('rejects with the error data main sent', async () => {
    const api = await loadApi();
    invoke.mockResolvedValueOnce({
      ok: false,
      error: { code: 'invalid_argument', message: 'bad' },
    });
    await expect(api.call('catalog.search', { limit: -1 })).rejects.toEqual({
      code: 'invalid_argument',
      message: 'bad',
    });
  });

  it('refuses names outside the contract without touching IPC', async () => {
    const api = await loadApi();
    for (const m of ['fs.read', 'toString', '__proto__', 'constructor', 42, null]) {
      await expect(api.call(m, {})).rejects.toMatchObject({ code: 'unknown_method' });
    }
    expect(invoke).not.toHaveBeenCalled();
    expect(() => api.on('ipc.anything', () => undefined)).toThrow(/unknown event/);
    expect(() => api.on('sync.progress', 'not a function')).toThrow(/listener/);
  });

  it('delivers only the subscribed event, without the IPC event object, until unsubscribed', async () => {
    const api = await loadApi();
    const got: unknown[] = [];
    const off = api.on('outbox.changed', (p: unknown) => got.push(p));
    const emit = (...a: unknown[]) => {
      for (const fn of listeners.get('eo:event') ?? []) fn({ sender: 'ipc-internals' }, ...a);
    };
    emit('outbox.changed', { pending: 2 });
    emit('sync.progress', { resource: 'orders', seen: 1, total: 2 });
    off();
    emit('outbox.changed', { pending: 5 });
    expect(got).toEqual([{ pending: 2 }]);
  });
});
