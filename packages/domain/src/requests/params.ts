/**
 * Building blocks for query and path parameters. Query values arrive as strings (or arrays of
 * strings when a key repeats), so numbers are coerced and lists accept `a,b,c` or repeated keys.
 */
import { z } from 'zod';
import { LIMITS } from '../limits';

/** `limit`: integer 1..maxLimit with the given default. */
export function limitParam(defaultValue: number) {
  return z.coerce
    .number({ error: 'limit must be an integer' })
    .int('limit must be an integer')
    .min(1, 'limit must be at least 1')
    .max(LIMITS.maxLimit, `limit must be at most ${LIMITS.maxLimit}`)
    .default(defaultValue);
}

/** `offset` / `skip`: integer >= 0, default 0. */
export function offsetParam(name: 'offset' | 'skip' = 'offset') {
  return z.coerce
    .number({ error: `${name} must be an integer` })
    .int(`${name} must be an integer`)
    .min(0, `${name} must be at least 0`)
    .max(LIMITS.maxOffset, `${name} must be at most ${LIMITS.maxOffset}`)
    .default(0);
}

function splitList(v: string | string[]): string[] {
  const raw = Array.isArray(v) ? v : [v];
  return raw
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Comma-separated (or repeated) list of ids: `a,b,c`. */
export const CsvIds = z
  .union([z.string(), z.array(z.string())])
  .transform(splitList)
  .pipe(
    z
      .array(z.string())
      .min(1, 'the list is empty; omit the parameter to not filter')
      .max(LIMITS.maxIdsPerFilter, `at most ${LIMITS.maxIdsPerFilter} values`),
  );

/** Comma-separated (or repeated) list of enum values. */
export function csvEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z
    .union([z.string(), z.array(z.string())])
    .transform(splitList)
    .pipe(z.array(z.enum(values)).min(1, 'the list is empty; omit the parameter to not filter'));
}

/** A non-empty path or query id. */
export const IdParam = z.string().min(1, 'must not be empty');
