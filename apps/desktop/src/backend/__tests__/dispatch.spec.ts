import { describe, expect, it } from 'vitest';
import { recordingHandlers } from '../../areas/__tests__/argument-checks';
import { dispatch } from '../dispatch';

/** Each method's good and bad arguments are checked in its area's spec (src/areas/<area>/__tests__). */
describe("the backend's dispatch: the one check of a call's argument", () => {
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
