/**
 * Counts how many times a schema checks an input, as the root of a parse or nested in another
 * schema: what the "validate once per trust boundary" tests hold to a number. Zod looks
 * `_zod.run` up at every use, so wrapping it sees every run. Runs over `undefined` are not input
 * checks (a client asks a body schema whether a body is optional). `restore()` when done.
 */
import type { z } from 'zod';

export function countSchemaRuns(schema: z.ZodType): { count(): number; restore(): void } {
  const internals = schema._zod as unknown as {
    run: (payload: { value: unknown }, ctx: unknown) => unknown;
  };
  const original = internals.run;
  let runs = 0;
  internals.run = function (payload, ctx) {
    if (payload.value !== undefined) runs += 1;
    return original.call(this, payload, ctx);
  };
  return {
    count: () => runs,
    restore: () => {
      internals.run = original;
    },
  };
}
