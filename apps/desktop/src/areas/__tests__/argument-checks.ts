/**
 * The argument checks every area's spec runs over its own methods: the backend's dispatch (the
 * one place a call's argument is validated; main only relays) refuses the bad argument at the
 * field path named and never passes it on, and hands the good one to the handler. The cases
 * are typed by the area's methods, so a new method does not compile until its area's spec
 * gives it a case (`areas.spec.ts` checks that every area has such a spec).
 */
import { describe, expect, it, vi } from 'vitest';
import { dispatch, type Handlers } from '../../backend/dispatch';
import { METHODS, type Method } from '../../shared/contract';

/** A good and a bad argument for one method, and the field path the bad one is refused at. */
export interface ArgumentCase {
  readonly good: unknown;
  readonly bad: unknown;
  /** The issue's path ('' when the argument as a whole is refused). */
  readonly path: string;
}

/** Handlers for every method that record what reached them and answer `passed`. */
export function recordingHandlers() {
  const reached = vi.fn((_method: Method, _input: unknown) => 'passed');
  const handlers = Object.fromEntries(
    METHODS.map((m) => [m, (input: unknown) => reached(m, input)]),
  ) as unknown as Handlers;
  return { handlers, reached };
}

export function describeArgumentChecks<M extends Method>(
  area: string,
  methods: Readonly<Record<M, unknown>>,
  // NoInfer: the methods decide M, so a case missing for one of them fails to compile.
  cases: Readonly<Record<NoInfer<M>, ArgumentCase>>,
): void {
  describe(`the ${area} area's arguments, checked by the backend's dispatch`, () => {
    it('has a case for every method of the area', () => {
      expect(Object.keys(cases).sort()).toEqual(Object.keys(methods).sort());
    });

    it.each(Object.entries<ArgumentCase>(cases))(
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
  });
}
