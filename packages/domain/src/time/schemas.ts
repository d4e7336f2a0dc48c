/** zod string schemas for each timestamp layout. Values stay strings on the wire types. */
import { z } from 'zod';
import {
  assetDate,
  isoTimestamp,
  microTimestamp,
  taskDate,
  tryParseRfc3339,
  type Codec,
} from './codecs';
import { parseInstantRange, parseNumberRange } from './interval';

/**
 * A string in a codec's layout. `refine` with the allocation-free `isValid` (not `superRefine`
 * with `tryParse`): validating a page of thousands of records then allocates nothing per
 * timestamp; the message (the same as `tryParse`'s) is built only for an invalid value.
 */
function layoutString<T, S>(codec: Codec<T, S>) {
  return z.string().refine((s) => codec.isValid(s), {
    error: (issue) => {
      const r = codec.tryParse(String(issue.input));
      return r.ok ? undefined : r.error.message;
    },
  });
}

/** ISO 8601 with Z or +00:00 (orders, order items, catalog records, deliveries). */
export const IsoTimestamp = layoutString(isoTimestamp);
/** `YYYY-MM-DD HH:MM:SS.ffffff+00:00` (AOIs, assets, visualizations, indices). */
export const MicroTimestamp = layoutString(microTimestamp);
/** `DD-MM-YYYY` (task dates). */
export const TaskDate = layoutString(taskDate);
/** `YYYY-MM-DD` (asset date). */
export const AssetDate = layoutString(assetDate);

/** RFC 3339 date-time with any offset (search and request inputs). */
export const Rfc3339 = z.string().superRefine((s, ctx) => {
  const r = tryParseRfc3339(s);
  if (!r.ok) ctx.addIssue({ code: 'custom', message: r.error.message });
});

/** An instant or an interval of instants (`A/B`, `../B`, `A/..`). */
export const InstantRangeString = z.string().superRefine((s, ctx) => {
  const r = parseInstantRange(s);
  if (!r.ok) ctx.addIssue({ code: 'custom', message: r.message });
});

/** A number or an interval of numbers (`100/5000`, `../5000`, `100/..`). */
export const NumberRangeString = z.string().superRefine((s, ctx) => {
  const r = parseNumberRange(s);
  if (!r.ok) ctx.addIssue({ code: 'custom', message: r.message });
});
