/**
 * 4.3 POST /v0/catalogs/search: the request schema. Semantics live in `./evaluate.ts`.
 *
 * Our choices where the spec is open (also in packages/reference-service/README.md):
 * - Empty id lists are rejected ("omit the field to not filter"), never a silent empty result.
 * - `query` operators: gt, gte, lt, lte, eq, neq; eq and neq take a scalar or an array (IN / NOT IN).
 * - `sort_by.direction` defaults to asc; ties always break by record id ascending.
 * - Property paths in `query` and `sort_by`: see `./paths.ts`.
 */
import { z } from 'zod';
import { GeometryInput } from '../geometry';
import { LIMITS } from '../limits';
import { InstantRangeString } from '../time/schemas';
import { parseRfc3339 } from '../time/codecs';
import { isTimestampProperty } from './paths';

const finite = z.number().refine(Number.isFinite, 'must be a finite number');

export const Bbox = z
  .tuple([finite, finite, finite, finite], {
    error: 'bbox is four numbers: [min lon, min lat, max lon, max lat]',
  })
  .superRefine(([w, s, e, n], ctx) => {
    for (const [i, v] of [
      [0, w],
      [2, e],
    ] as const) {
      if (v < -180 || v > 180)
        ctx.addIssue({ code: 'custom', path: [i], message: 'longitude must be within -180..180' });
    }
    for (const [i, v] of [
      [1, s],
      [3, n],
    ] as const) {
      if (v < -90 || v > 90)
        ctx.addIssue({ code: 'custom', path: [i], message: 'latitude must be within -90..90' });
    }
    if (s > n) {
      ctx.addIssue({
        code: 'custom',
        path: [3],
        message: 'max latitude (4th value) is below min latitude (2nd value)',
      });
    }
  });
export type Bbox = z.infer<typeof Bbox>;

export const QueryScalar = z.union([z.string(), finite, z.boolean()]);
export type QueryScalar = z.infer<typeof QueryScalar>;
const QueryScalarOrList = z.union([
  QueryScalar,
  z.array(QueryScalar).min(1, 'an eq/neq list needs at least one value'),
]);
const Orderable = z.union([z.string(), finite]);

export const QueryOperators = z
  .strictObject({
    eq: QueryScalarOrList.optional(),
    neq: QueryScalarOrList.optional(),
    gt: Orderable.optional(),
    gte: Orderable.optional(),
    lt: Orderable.optional(),
    lte: Orderable.optional(),
  })
  .refine((o) => Object.values(o).some((v) => v !== undefined), {
    message: 'give at least one operator: eq, neq, gt, gte, lt, lte',
  });
export type QueryOperators = z.infer<typeof QueryOperators>;

const QueryFilters = z.record(z.string().min(1), QueryOperators);

/**
 * `query`. JSON.parse makes `"__proto__"` an own key, which a zod record drops without a word
 * (the filter would silently vanish). A bare key names a STAC property (`./paths.ts`), so it is
 * read as `properties.__proto__`; given together with that spelling, it is refused. (Our
 * service's JSON parser refuses such bodies before; offline search and the desktop get here.)
 */
const QueryField = z.preprocess((v, ctx) => {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || !Object.hasOwn(v, '__proto__'))
    return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const key = k === '__proto__' ? 'properties.__proto__' : k;
    if (Object.hasOwn(out, key)) {
      ctx.addIssue({
        code: 'custom',
        path: ['__proto__'],
        message: '"__proto__" and "properties.__proto__" name the same property; give one',
      });
      continue;
    }
    Object.defineProperty(out, key, { value: x, enumerable: true, writable: true });
  }
  return out;
}, QueryFilters) as unknown as typeof QueryFilters;

const idList = (what: string) =>
  z
    .array(z.string().min(1))
    .min(1, `${what} is empty; omit the field to not filter`)
    .max(LIMITS.maxIdsPerFilter, `${what} has at most ${LIMITS.maxIdsPerFilter} values`);

export const SortBy = z.strictObject({
  field: z.string().min(1, 'sort field is required'),
  direction: z.enum(['asc', 'desc']).default('asc'),
});
export type SortBy = z.infer<typeof SortBy>;

export const CatalogSearchRequest = z
  .strictObject({
    bbox: Bbox.optional(),
    collections: idList('collections').optional(),
    datetime: InstantRangeString.optional(),
    ids: idList('ids').optional(),
    intersects: GeometryInput.optional(),
    item_ids: idList('item_ids').optional(),
    limit: z
      .number()
      .int('limit must be an integer')
      .min(1, 'limit must be at least 1')
      .max(LIMITS.maxLimit, `limit must be at most ${LIMITS.maxLimit}`)
      .default(LIMITS.catalogSearchDefaultLimit),
    offset: z
      .number()
      .int('offset must be an integer')
      .min(0, 'offset must be at least 0')
      .max(LIMITS.maxOffset)
      .default(0),
    order_ids: idList('order_ids').optional(),
    order_item_ids: idList('order_item_ids').optional(),
    query: QueryField.optional(),
    sort_by: z.array(SortBy).max(10, 'at most 10 sort keys').optional(),
  })
  .superRefine((req, ctx) => {
    if (req.bbox && req.intersects) {
      ctx.addIssue({
        code: 'custom',
        path: ['intersects'],
        message: 'give bbox or intersects, not both',
      });
    }
    // Comparisons on timestamp properties need real timestamps, or they would silently match nothing.
    for (const [key, ops] of Object.entries(req.query ?? {})) {
      if (!isTimestampProperty(key)) continue;
      for (const [op, value] of Object.entries(ops)) {
        for (const v of Array.isArray(value) ? value : [value]) {
          if (v === undefined) continue;
          let ok = typeof v === 'string';
          if (ok) {
            try {
              parseRfc3339(v as string);
            } catch {
              ok = false;
            }
          }
          if (!ok) {
            ctx.addIssue({
              code: 'custom',
              path: ['query', key, op],
              message: `${key} is a timestamp: compare it with an RFC 3339 date-time such as 2024-05-17T00:00:00Z`,
            });
          }
        }
      }
    }
  });
export type CatalogSearchRequest = z.infer<typeof CatalogSearchRequest>;
export type CatalogSearchRequestInput = z.input<typeof CatalogSearchRequest>;
