/** Pagination objects of spec 2.2. */
import type { OffsetPagination, SkipPagination } from '@eo/domain';

export function offsetPage(limit: number, offset: number, total: number): OffsetPagination {
  return { limit, offset, total };
}

export function skipPage(limit: number, skip: number, total: number): SkipPagination {
  return { limit, skip, total };
}

/**
 * The leading rows of a page that fit in `maxBytes` (always at least one), by each row's size
 * on the wire (an estimate is fine: the stored geometry dominates). A page that stops early
 * answers with `limit` = the rows it holds, so `offset + limit` is the next page
 * (docs/choices-validation.md, "List pages of one organisation").
 */
export function fitPage<T>(
  rows: readonly T[],
  requestedLimit: number,
  bytesOf: (row: T) => number,
  maxBytes: number,
): { rows: T[]; limit: number } {
  let shown = 0;
  let bytes = 0;
  for (const r of rows) {
    const b = bytesOf(r);
    if (shown > 0 && bytes + b > maxBytes) break;
    bytes += b;
    shown++;
  }
  return shown < rows.length
    ? { rows: rows.slice(0, shown), limit: shown }
    : { rows: [...rows], limit: requestedLimit };
}
