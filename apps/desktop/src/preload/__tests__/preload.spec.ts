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

const { EVENT_NAMES, METHODS } = await import('../../shared/contract');
const { contractNameArguments } = await import('../../shared/names');
/** The command line main gives the window (main/window.ts): the contract's names. */
const argvWithNames = [...process.argv, ...contractNameArguments(METHODS, EVENT_NAMES)];

async function loadApi(argv = argvWithNames): Promise<Api> {
  vi.resetModules();
  for (const key of Object.keys(exposed)) delete exposed[key];
  const saved = process.argv;
  process.argv = [...argv];
  try {
    await import('../index');
  } finally {
    process.argv = saved;
  }
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

  it('exposes nothing when main passed no names (fails closed)', async () => {
    await expect(loadApi(process.argv)).rejects.toThrow(/--eo-methods=/);
    expect(exposed).toEqual({});
    const broken = [...process.argv, '--eo-methods=fs.read,x;y', '--eo-events=sync.progress'];
    await expect(loadApi(broken)).rejects.toThrow(/does not list contract names/);
    expect(exposed).toEqual({});
  });

  it('allows every contract method and event, as main named them', async () => {
    const api = await loadApi();
    invoke.mockResolvedValue({ ok: true, value: null });
    for (const m of METHODS) await expect(api.call(m, undefined)).resolves.toBeNull();
    expect(invoke).toHaveBeenCalledTimes(METHODS.length);
    for (const e of EVENT_NAMES) api.on(e, () => undefined)();
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
