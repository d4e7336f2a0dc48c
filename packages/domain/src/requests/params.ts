/**
 * Building blocks for query and path parameters. Query values arrive as strings (or arrays of
 * strings when a key repeats), so integers are read from plain decimal text and lists accept
 * `a,b,c` or repeated keys.
 */
import { z } from 'zod';
import { LIMITS } from '../limits';

/**
 * An integer query parameter: a JS integer (clients build queries as objects) or its text in
 * plain decimal digits, optionally after a minus sign. `Number()` alone would also read `0x10`,
 * `+1`, `1e2`, `" 1"` and `""` (as 0); one rule for every list endpoint refuses them.
 */
function queryInteger(name: string) {
  const message = `${name} must be an integer in decimal digits, such as 20`;
  return z
    .union([z.number(), z.string()], { error: message })
    .transform((v, ctx) => {
      if (typeof v === 'number') return v;
      if (/^-?[0-9]+$/.test(v)) return Number(v);
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    })
    .pipe(z.number().int(message));
}

/** `limit`: integer 1..maxLimit with the given default. */
export function limitParam(defaultValue: number) {
  return queryInteger('limit')
    .pipe(
      z
        .number()
        .min(1, 'limit must be at least 1')
        .max(LIMITS.maxLimit, `limit must be at most ${LIMITS.maxLimit}`),
    )
    .default(defaultValue);
}

/** `offset` / `skip`: integer >= 0, default 0. */
export function offsetParam(name: 'offset' | 'skip' = 'offset') {
  return queryInteger(name)
    .pipe(
      z
        .number()
        .min(0, `${name} must be at least 0`)
        .max(LIMITS.maxOffset, `${name} must be at most ${LIMITS.maxOffset}`),
    )
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

/**
 * An organisation id a service creates (our admin CLI): 1-64 letters, digits, `.`, `_` or `-`,
 * starting with a letter or digit. The id names the organisation's delivery folder, so `..`,
 * `.`, separators and control characters are refused.
 */
export const OrganisationIdString = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
    'an organisation id is 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit',
  );

/** An integer query parameter in [min, max] with a default (page numbers, page sizes). */
export function boundedIntParam(name: string, min: number, max: number, defaultValue: number) {
  return queryInteger(name)
    .pipe(
      z
        .number()
        .min(min, `${name} must be at least ${min}`)
        .max(max, `${name} must be at most ${max}`),
    )
    .default(defaultValue);
}
