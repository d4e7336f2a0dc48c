/** The error shape check shared by the server's hostile-input tests (not a spec file). */
import { expect } from 'vitest';

/** Exactly our shape: nothing but `error`, and in it nothing but code, message, details. */
export function expectOurShape(body: unknown, what: string): { code: string; message: string } {
  expect(body, what).toEqual({
    error: expect.objectContaining({ code: expect.any(String), message: expect.any(String) }),
  });
  const error = (body as { error: Record<string, unknown> }).error;
  expect(
    Object.keys(error).filter((k) => !['code', 'message', 'details'].includes(k)),
    what,
  ).toEqual([]);
  return error as { code: string; message: string };
}
