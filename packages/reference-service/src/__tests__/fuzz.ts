/**
 * What the server's property tests draw requests from (not a spec file): header values,
 * hostile `Range` headers, ids and path segments, and a bound on every answer's time. Seeded
 * (`EO_FUZZ_SEED` to try another), so a run is the same run on every machine.
 */
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { expectOurShape } from './error-body';

export const FUZZ_SEED = Number(process.env.EO_FUZZ_SEED ?? 20261129);

/** Printable ASCII (what a header value may hold), up to `maxLength` characters. */
export const printable = (maxLength: number) => fc.string({ unit: 'grapheme-ascii', maxLength });

const digits = fc.oneof(
  fc.nat({ max: 100_000 }).map(String),
  fc.constantFrom('0', '00000', '9007199254740993', '99999999999999999999999999', '1e3', '-1'),
);

/** A well-formed range spec: `a-b`, `a-`, `-n`. */
const wellFormed = fc.oneof(
  fc.tuple(digits, digits).map(([a, b]) => `${a}-${b}`),
  digits.map((a) => `${a}-`),
  digits.map((n) => `-${n}`),
);

/** One range spec: `a-b`, `a-`, `-n`, reversed, garbage. */
const rangeSpec = fc.oneof(
  wellFormed,
  fc.constantFrom('-', '--', '1-2-3', '', ' 5 - 9 ', 'a-b', '0x10-0x20'),
  printable(12),
);

/**
 * `Range` header values: none, one range, up to 300 well-formed ranges (past the 256 a request
 * may list), any mix with another unit or garbage. (`size: 'max'`: lists of every length up to
 * the bound, not fast-check's default of short ones.)
 */
export const rangeHeader: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constant(undefined),
  { arbitrary: rangeSpec.map((s) => `bytes=${s}`), weight: 3 },
  fc
    .array(wellFormed, { minLength: 2, maxLength: 300, size: 'max' })
    .map((specs) => `bytes=${specs.join(',')}`),
  fc
    .tuple(
      fc.constantFrom('bytes=', 'bytes = ', 'BYTES=', 'pages=', '', 'bytes=bytes='),
      fc.array(rangeSpec, { minLength: 1, maxLength: 300, size: 'max' }),
      fc.constantFrom(',', ', ', ' ,', ',,'),
    )
    .map(([unit, specs, sep]) => `${unit}${specs.join(sep)}`),
  printable(200),
);

/** Ids and path segments: plain, unicode, percent-encoded, traversal, prototype names, long. */
export const segment: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    '..',
    '%2e%2e',
    '%2F',
    '%00',
    '%ZZ',
    '__proto__',
    'constructor',
    'x'.repeat(300),
    ' ',
    'scene.tif',
  ),
);

/** A path segment as sent: encoded (the raw ones above stay as written when they hold a %). */
export const asSent = (s: string) => (/%/.test(s) ? s : encodeURIComponent(s));

/** Waits for `answer` up to `ms` (10 s): a hang fails naming the request, well under the test's time. */
export async function answered(
  answer: Promise<LightMyRequestResponse>,
  what: string,
  ms = 10_000,
): Promise<LightMyRequestResponse> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms: ${what}`)), ms);
  });
  try {
    return await Promise.race([answer, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Never a 5xx; an error is a 4xx in our shape. */
export function expectClearRefusal(res: LightMyRequestResponse, what: string): void {
  expect(res.statusCode, what).toBeLessThan(500);
  if (res.statusCode >= 400) expectOurShape(res.json(), what);
}
