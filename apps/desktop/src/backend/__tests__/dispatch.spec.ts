import { describe, expect, it, vi } from 'vitest';
import { METHODS, type Method } from '../../shared/contract';
import { dispatch, type Handlers } from '../dispatch';
import { CASES } from './dispatch-cases';

/** Handlers that record what reached them and answer `passed`. */
function recordingHandlers() {
  const reached = vi.fn((_method: Method, _input: unknown) => 'passed');
  const handlers = Object.fromEntries(
    METHODS.map((m) => [m, (input: unknown) => reached(m, input)]),
  ) as unknown as Handlers;
  return { handlers, reached };
}

describe("the backend's dispatch: the one check of a call's argument", () => {
  it('has a case for every contract method', () => {
    expect(Object.keys(CASES).sort()).toEqual([...METHODS].sort());
  });

  it.each(Object.entries(CASES))(
    '%s: bad arguments are refused with their path, never passed on',
    async (method, c) => {
      const { handlers, reached } = recordingHandlers();
      const bad = await dispatch(handlers, method, c.bad);
      expect(bad.ok).toBe(false);
      if (!bad.ok) {
        expect(bad.error.code).toBe('invalid_argument');
        expect(bad.error.message).toContain(`invalid argument for ${method}`);
        if (c.path) expect(bad.error.details?.issues?.map((i) => i.path)).toContain(c.path);
      }
      expect(reached).not.toHaveBeenCalled();
      expect(await dispatch(handlers, method, c.good)).toEqual({ ok: true, value: 'passed' });
      expect(reached).toHaveBeenCalledTimes(1);
      expect(reached.mock.calls[0]![0]).toBe(method);
    },
  );

  it('refuses unknown methods', async () => {
    const { handlers, reached } = recordingHandlers();
    for (const name of ['fs.readFile', '__proto__', 'toString', 7]) {
      expect(await dispatch(handlers, name, {})).toMatchObject({
        ok: false,
        error: { code: 'unknown_method' },
      });
    }
    expect(reached).not.toHaveBeenCalled();
  });

  it('hands the handler the parsed argument (defaults applied), not the raw object', async () => {
    const { handlers, reached } = recordingHandlers();
    const raw = { bbox: [0, 0, 1, 1] };
    await dispatch(handlers, 'catalog.search', raw);
    const passed = reached.mock.calls[0]![1] as Record<string, unknown>;
    expect(passed).not.toBe(raw);
    expect(passed).toMatchObject({ bbox: [0, 0, 1, 1], offset: 0 });
    expect(typeof passed.limit).toBe('number');
  });
});
