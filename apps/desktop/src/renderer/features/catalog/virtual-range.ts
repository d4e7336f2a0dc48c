/**
 * Window arithmetic of the virtualised results list: fixed-height rows, so which rows to render
 * and where to scroll to show one are plain arithmetic (no measuring of 100,000 rows).
 */
export interface RowWindow {
  /** First row to render (inclusive). */
  readonly start: number;
  /** Row after the last one to render (exclusive). */
  readonly end: number;
}

export function visibleRows(
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
  total: number,
  overscan = 6,
): RowWindow {
  if (total <= 0 || rowHeight <= 0) return { start: 0, end: 0 };
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const count = Math.ceil(Math.max(0, viewportHeight) / rowHeight) + 1;
  const start = Math.max(0, Math.min(total - 1, first - overscan));
  const end = Math.min(total, first + count + overscan);
  return { start, end: Math.max(start, end) };
}

/** scrollTop that brings row `index` fully into view, or the current one when it already is. */
export function scrollToReveal(
  index: number,
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
): number {
  const top = index * rowHeight;
  const bottom = top + rowHeight;
  if (top < scrollTop) return top;
  if (bottom > scrollTop + viewportHeight) return Math.max(0, bottom - viewportHeight);
  return scrollTop;
}
