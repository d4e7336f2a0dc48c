/** Helpers shared by the domain tests (not a spec file itself). */
import { expect } from 'vitest';
import type { z } from 'zod';

export interface Issue {
  path: PropertyKey[];
  message: string;
  code?: string;
}

/** Issues of a parse that must fail (fails the test when the value is accepted). */
export function issuesOf(schema: z.ZodType, value: unknown): Issue[] {
  const r = schema.safeParse(value);
  if (r.success) {
    throw new Error(`expected the value to be rejected, but it parsed:\n${JSON.stringify(value)}`);
  }
  return r.error.issues.map((i) => ({ path: [...i.path], message: i.message, code: i.code }));
}

/** Parses or fails the test with the issues listed. */
export function parseOk<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) {
    throw new Error(
      `expected the value to parse, got:\n${r.error.issues
        .map((i) => `  ${i.path.join('.')}: ${i.message}`)
        .join('\n')}`,
    );
  }
  return r.data;
}

/** Asserts one issue sits at `path` (and its message matches `message`, when given). */
export function expectIssueAt(
  schema: z.ZodType,
  value: unknown,
  path: PropertyKey[],
  message?: RegExp | string,
): Issue {
  const issues = issuesOf(schema, value);
  const hit = issues.find((i) => JSON.stringify(i.path) === JSON.stringify(path));
  expect(
    hit,
    `no issue at ${JSON.stringify(path)}; issues: ${JSON.stringify(issues)}`,
  ).toBeDefined();
  if (message !== undefined) expect(hit!.message).toMatch(message);
  return hit!;
}

/** A JSON deep copy, so tests can mutate a built object freely. */
export function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/** Keys of a zod object schema (also works after `.superRefine`). */
export function shapeKeys(schema: z.ZodType): string[] {
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  if (!shape) throw new Error('not an object schema');
  return Object.keys(shape);
}

/** Same letters, other case: `PAID` -> `paid`, `success` -> `SUCCESS`. */
export function otherCase(s: string): string {
  const lower = s.toLowerCase();
  return lower !== s ? lower : s.toUpperCase();
}
