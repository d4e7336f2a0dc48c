/** 4.5 POST /v0/search: search satellite images (skip-based pagination). */
import { z } from 'zod';
import { GeometryInput } from '../geometry';
import { LIMITS } from '../limits';
import { parseRfc3339 } from '../time/codecs';
import { Rfc3339 } from '../time/schemas';

export const SatelliteSearchFilter = z
  .strictObject({
    id: z.string().min(1, 'filter id (a property key) is required'),
    min: z.number().optional(),
    max: z.number().optional(),
  })
  .superRefine((f, ctx) => {
    if (f.min === undefined && f.max === undefined) {
      ctx.addIssue({ code: 'custom', message: 'a filter needs min, max or both' });
    }
    if (f.min !== undefined && f.max !== undefined && f.min > f.max) {
      ctx.addIssue({ code: 'custom', path: ['max'], message: 'max must not be below min' });
    }
  });

/**
 * What a satellite search looks for, without its paging (skip, limit): the part of a search a
 * saved archive search keeps (saved-archive-search.ts).
 */
export const SatelliteSearchCriteria = z.strictObject({
  satellite: z.strictObject({
    collection_id: z.string().min(1, 'collection_id is required'),
    satellite_id: z.string().min(1, 'satellite_id is required'),
  }),
  start_date: Rfc3339.optional(),
  end_date: Rfc3339.optional(),
  filters: z.array(SatelliteSearchFilter).max(50).optional(),
  geometry: GeometryInput.optional(),
});

/** end_date must not be before start_date (a refinement: both the request and the criteria use it). */
export function checkSearchWindow(
  r: { start_date?: string | undefined; end_date?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (r.start_date && r.end_date) {
    try {
      if (parseRfc3339(r.end_date) < parseRfc3339(r.start_date)) {
        ctx.addIssue({
          code: 'custom',
          path: ['end_date'],
          message: 'end_date must not be before start_date',
        });
      }
    } catch {
      // reported by the field schemas
    }
  }
}

export const SatelliteSearchRequest = SatelliteSearchCriteria.extend({
  // JSON bodies carry numbers, so no coercion; bounds as in the spec's part 8.
  skip: z.number().int().min(0, 'skip must be at least 0').max(LIMITS.maxOffset).default(0),
  limit: z
    .number()
    .int()
    .min(1, 'limit must be at least 1')
    .max(LIMITS.maxLimit)
    .default(LIMITS.satelliteSearchDefaultLimit),
}).superRefine(checkSearchWindow);
export type SatelliteSearchRequest = z.infer<typeof SatelliteSearchRequest>;
