/**
 * The fast validation path must agree with zod exactly: same verdict on every input, and on
 * success a deep-equal value. A seeded mutation fuzzer derives thousands of near-valid bodies
 * from valid ones for every response schema, plus schemas using the features the compiler
 * hands back to zod (strip objects, tuples, transforms, overwrites, impure unions).
 */
import { endpoints, ENDPOINT_IDS } from '@eo/domain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { canned, wire } from '../../test/fixtures';
import { compileChecker } from '../compiled-validator';

/** mulberry32: small, seeded, good enough to pick mutations reproducibly. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const POOL: unknown[] = [
  null,
  0,
  -1,
  1.5,
  2 ** 60,
  '',
  'x',
  '𝒳',
  '2024-05-17T09:30:00Z',
  '2024-05-17 09:30:00.123456+00:00',
  '17-05-2024',
  '2024-05-17',
  true,
  false,
  [],
  [1, 2],
  [1.5],
  ['a', 'b'],
  [[1, 2]],
  {},
  { type: 'Point', coordinates: [1, 2] },
  { type: 'Point', coordinates: [1] },
  { type: 'FeatureCollection', features: [] },
  { href: 'h', rel: 'r' },
  { limit: 1, offset: 0, total: 1 },
  'Feature',
  'Polygon',
  'success',
  'TASKING',
  'PAID',
  'index',
  'custom',
];

type Json = unknown;

/** Every container path in a JSON value. */
function containers(
  v: Json,
  path: Array<string | number> = [],
  out: Array<Array<string | number>> = [],
) {
  if (v && typeof v === 'object') {
    out.push(path);
    for (const [k, x] of Object.entries(v))
      containers(x, [...path, Array.isArray(v) ? Number(k) : k], out);
  }
  return out;
}

function at(root: Json, path: Array<string | number>): Record<string | number, Json> {
  let v = root as Record<string | number, Json>;
  for (const p of path) v = v[p] as Record<string | number, Json>;
  return v;
}

function mutate(value: Json, rnd: () => number): Json {
  const copy = structuredClone(value);
  const n = 1 + Math.floor(rnd() * 3);
  for (let i = 0; i < n; i++) {
    const paths = containers(copy);
    if (paths.length === 0) return POOL[Math.floor(rnd() * POOL.length)];
    const target = at(copy, paths[Math.floor(rnd() * paths.length)]!);
    const keys = Object.keys(target);
    const pick = POOL[Math.floor(rnd() * POOL.length)];
    const op = rnd();
    if (Array.isArray(target)) {
      if (op < 0.3 && target.length > 0) target.pop();
      else if (op < 0.5 && target.length > 0) target.push(structuredClone(target[0]));
      else if (target.length > 0) target[Math.floor(rnd() * target.length)] = structuredClone(pick);
      else target.push(structuredClone(pick));
    } else if (op < 0.3 && keys.length > 0) {
      delete target[keys[Math.floor(rnd() * keys.length)]!];
    } else if (op < 0.4) {
      target[`extra_${i}`] = structuredClone(pick);
    } else if (keys.length > 0) {
      target[keys[Math.floor(rnd() * keys.length)]!] = structuredClone(pick);
    }
  }
  return copy;
}

/** Runs both paths on copies of `input` and expects the same outcome. */
function agree(schema: z.ZodType, check: ReturnType<typeof compileChecker>, input: Json): boolean {
  const expected = schema.safeParse(structuredClone(input));
  const actual = check(structuredClone(input));
  if (actual.ok !== expected.success) {
    throw new Error(
      `fast path says ${actual.ok ? 'valid' : 'invalid'}, zod says ${expected.success ? 'valid' : 'invalid'} for ${JSON.stringify(input).slice(0, 400)}`,
    );
  }
  if (actual.ok && expected.success) expect(actual.value).toEqual(expected.data);
  return actual.ok;
}

function fuzz(schema: z.ZodType, samples: Json[], iterations: number, seed: number) {
  const check = compileChecker(schema);
  const rnd = prng(seed);
  let valid = 0;
  for (const s of samples) expect(agree(schema, check, s)).toBe(true);
  for (let i = 0; i < iterations; i++) {
    if (agree(schema, check, mutate(samples[i % samples.length], rnd))) valid++;
  }
  return { valid, invalid: iterations - valid };
}

/** Richer valid bodies than the minimal fixtures, so mutations reach every field. */
const rich: Partial<Record<(typeof ENDPOINT_IDS)[number], Json[]>> = {
  searchCatalogs: [
    {
      catalogs: [wire.catalogRecord(1), wire.catalogRecord(2)],
      pagination: { limit: 2, skip: 0, total: 9 },
    },
  ],
  listOrders: [
    {
      orders: [
        {
          ...wire.order(),
          paid_at: '2024-05-17T09:30:00.123+00:00',
          total_amount: 10,
          order_items: [
            {
              ...wire.orderItem(),
              bandset: {
                bandset_id: 'b',
                bands: [{ name: 'B04', wavelength: 665 }],
                custom: [[1, 2]],
              },
              uplifts: [{ amount: 1, item_id: 'i', percentage: 5, subtitle: 's', title: 't' }],
              occurrences: [{ start: '2024-05-17T00:00:00Z', end: '2024-05-18T00:00:00Z' }],
              geometry: {
                type: 'FeatureCollection',
                features: [{ type: 'Feature', geometry: null }],
              },
              tasks: [
                { id: 't', order_item_id: 'oi-1', start_date: '17-05-2024', number_of_strips: 2 },
              ],
              validation_errors: [{ code: 'x' }],
            },
          ],
        },
      ],
      pagination: { limit: 10, offset: 0, total: 1 },
    },
  ],
  createJob: [
    {
      ...wire.job(),
      spec: [1, 2],
      tasks: [{ id: 'jt', progress: 0.5, block_info: { id: 'b' }, depends_on: ['x'] }],
      val_errors: [{ from: 'a', to: 'b' }],
    },
  ],
  createVisualization: [{ ...wire.visualization(), rescale: [0, 1], assets: [wire.asset()] }],
  listAois: [
    {
      aois: [{ ...wire.aoi(), centroid: [1, 2], eo_bands: ['B04'], images: { a: 1 } }],
      pagination: { limit: 10, offset: 0, total: 1 },
    },
  ],
};

describe('fast path == zod, for every response schema', () => {
  for (const id of ENDPOINT_IDS) {
    it(`${id}`, () => {
      const samples = [canned[id](), ...(rich[id] ?? [])];
      const { valid, invalid } = fuzz(
        endpoints[id].response as z.ZodType,
        samples,
        400,
        id.length * 7919,
      );
      // Both verdicts must be exercised, or the comparison proves little.
      expect(valid).toBeGreaterThan(0);
      expect(invalid).toBeGreaterThan(0);
    });
  }
});

describe('the fast path accepts and completes valid bodies', () => {
  it('applies defaults in place, as zod does', () => {
    const { links: _l, stac_extensions: _s, ...details } = wire.catalogRecord(3).details;
    const body = { catalogs: [{ ...wire.catalogRecord(3), details }], pagination: {} };
    const r = compileChecker(endpoints.searchCatalogs.response)(body);
    expect(r.ok).toBe(true);
    const out = (r as { value: { catalogs: Array<{ details: Record<string, unknown> }> } }).value;
    expect(out.catalogs[0]!.details.links).toEqual([]);
    expect(out.catalogs[0]!.details.stac_extensions).toEqual([]);
  });
  it('counts code points for min lengths like zod ("𝒳" is one code point, two units)', () => {
    const s = z.looseObject({ id: z.string().min(2), tag: z.string().min(1) });
    const check = compileChecker(s);
    for (const input of [
      { id: '𝒳', tag: '𝒳' },
      { id: '𝒳𝒳', tag: 'a' },
      { id: 'ab', tag: '' },
    ]) {
      agree(s, check, input);
    }
  });
});

describe('features handed to zod give zod results', () => {
  const Sub = z.object({ a: z.string(), b: z.number().optional() }); // strip mode
  const cases: Array<[string, z.ZodType, Json]> = [
    ['strip object', z.looseObject({ s: Sub }), { s: { a: 'x', b: 1, c: 2 } }],
    [
      'strict object',
      z.strictObject({ a: z.string(), n: z.number().int().gte(0).lt(10) }),
      { a: 'x', n: 3 },
    ],
    ['tuple', z.looseObject({ t: z.tuple([z.number(), z.string()]) }), { t: [1, 'a'] }],
    [
      'transform',
      z.looseObject({ csv: z.string().transform((s) => s.split(',')) }),
      { csv: 'a,b' },
    ],
    ['trim (overwrite)', z.looseObject({ name: z.string().trim().min(1) }), { name: ' x ' }],
    [
      'impure union',
      z.looseObject({
        u: z.union([
          z.looseObject({ a: z.array(z.number()).default([]), k: z.literal(1) }),
          z.looseObject({ k: z.literal(2) }),
        ]),
      }),
      { u: { k: 1 } },
    ],
    ['optional default', z.looseObject({ d: z.number().default(5).optional() }), { x: 1 }],
    [
      'superRefine',
      z.looseObject({ lo: z.number(), hi: z.number() }).superRefine((v, ctx) => {
        if (v.lo > v.hi) ctx.addIssue({ code: 'custom', message: 'lo > hi' });
      }),
      { lo: 1, hi: 2 },
    ],
    ['catchall number', z.object({ a: z.string() }).catchall(z.number()), { a: 'x', b: 1 }],
    [
      'record with key checks',
      z.looseObject({ r: z.record(z.string().min(2), z.number()) }),
      { r: { ab: 1 } },
    ],
    [
      'nullable lazy',
      z.looseObject({ g: z.lazy(() => z.looseObject({ n: z.number() })).nullable() }),
      { g: null },
    ],
  ];
  for (const [name, schema, sample] of cases) {
    it(name, () => {
      fuzz(schema, [sample], 300, name.length * 104729);
    });
  }
});
