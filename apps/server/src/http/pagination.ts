/** Pagination objects of spec 2.2. */
import type { OffsetPagination, SkipPagination } from '@eo/domain';

export function offsetPage(limit: number, offset: number, total: number): OffsetPagination {
  return { limit, offset, total };
}

export function skipPage(limit: number, skip: number, total: number): SkipPagination {
  return { limit, skip, total };
}
